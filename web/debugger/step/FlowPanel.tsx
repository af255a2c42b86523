import { flowCauseLabel, type FlowStepRef, type FlowStepVerdict } from '../../../engine/app.ts';
import { useServices } from '../../services/AppServices.tsx';

/**
 * The flow rules of the pipeline on this step [F9]: the engine's sentence for each rule that ran (whether it
 * fired, and on which earlier step), and a button that jumps to that step. Rules that did not see the event
 * are listed after them, quieter. Nothing here decides: the verdicts are the engine's.
 */
export function FlowPanel({ flows }: { flows: FlowStepVerdict[] }) {
  if (flows.length === 0) return null;
  const ran = flows.filter((f) => f.ran);
  const others = flows.filter((f) => !f.ran);
  return (
    <section className="dbg-section dbg-flows" aria-label="Flow rules" data-testid="flow-panel">
      <h3 className="section-title">Flow rules</h3>
      {[...ran, ...others].map((f) => (
        <div key={f.handler_id} className={`dbg-flow${f.ran ? (f.fires ? ' fired' : ' quiet') : ' unseen'}`} data-testid="flow-verdict" data-handler={f.handler_id} data-fires={f.fires} data-ran={f.ran}>
          <p className="dbg-flow-text">{f.sentence}</p>
          {f.cause && <CauseButton cause={f.cause} />}
        </div>
      ))}
    </section>
  );
}

/** "Go to step 14": moves the debugger (timeline, canvas, step view) to the earlier step. */
export function CauseButton({ cause }: { cause: FlowStepRef }) {
  const { replay } = useServices();
  return (
    <button className="btn ghost dbg-mini" data-testid="flow-cause" data-index={cause.index} title={cause.text} onClick={() => replay.goTo(cause.index)}>
      {flowCauseLabel(cause)}
    </button>
  );
}
