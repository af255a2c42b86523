import { useApp, selectDetail, selectWhyHandler } from '../../store/appStore.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { CauseButton } from './FlowPanel.tsx';

/**
 * "Why didn't it fire?": pick any handler (here or on the canvas); the answer for the current event is the
 * engine's first reason, in one sentence [R14].
 */
export function WhyPanel() {
  const detail = useApp(selectDetail);
  const handler = useApp(selectWhyHandler);
  if (!detail) return null;
  const answer = handler ? detail.why.find((w) => w.handler_id === handler) : undefined;
  return (
    <section className="dbg-why" data-testid="why-panel">
      <div className="row">
        <DebugIcon name="question" size={14} />
        <span className="title">Why didn’t it fire?</span>
        <select className="select grow" value={handler ?? ''} aria-label="Handler to ask about" data-testid="why-handler"
          onChange={(e) => useApp.getState().select(e.target.value ? [e.target.value] : [])}>
          <option value="">Pick a handler…</option>
          {detail.why.map((w) => <option key={w.handler_id} value={w.handler_id}>{w.handler_name ?? w.handler_id}{w.fired ? ' (fired)' : ''}</option>)}
        </select>
      </div>
      {answer ? (
        <>
          <p className={`dbg-why-answer ${answer.fired ? 'fired' : 'not-fired'}`} data-testid="why-answer" data-kind={answer.reason.kind}>{answer.sentence}</p>
          {(answer.reason.kind === 'fired' || answer.reason.kind === 'flow_not_fired') && answer.reason.cause && <CauseButton cause={answer.reason.cause} />}
        </>
      ) : (
        <p className="dbg-muted">Pick a handler, or click one on the canvas: the answer names the first reason for this event.</p>
      )}
    </section>
  );
}
