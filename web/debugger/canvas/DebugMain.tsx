import { useEffect, useMemo } from 'react';
import { Canvas, type CanvasFollow } from '../../canvas/Canvas.tsx';
import { useApp, selectDoc, selectPipelineId, selectSelectedNodes, selectCompile, selectNoReplay, selectDetail, selectTrace, selectWhyHandler } from '../../store/appStore.ts';
import { useServices } from '../../services/AppServices.tsx';
import { pathHighlight, type Highlight } from '../model/pathHighlight.ts';
import { OUTCOME_LABEL, stepNumber } from '../model/labels.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { ZoomButtons } from '../../canvas/CanvasToolbar.tsx';
import { SearchNote } from '../ui/SearchNote.tsx';

/** The canvas, read-only, lit along the path the current event took; with the legend and the states around it. */
export function DebugMain() {
  const doc = useApp(selectDoc);
  const pipelineId = useApp(selectPipelineId);
  const selected = useApp(selectSelectedNodes);
  const detail = useApp(selectDetail);
  const why = useApp(selectWhyHandler);
  const trace = useApp(selectTrace);

  // Clicking a handler on the canvas asks "why didn't it fire?" about it and focuses its paths.
  useEffect(() => {
    const node = selected.length === 1 ? doc?.nodes.find((n) => n.id === selected[0]) : undefined;
    useApp.getState().askWhy(node?.kind === 'handler' ? node.id : null);
  }, [selected, doc]);

  // The pick belongs to the step it was asked on (stepChosen clears it): the canvas selection goes with it.
  const position = useApp((s) => s.position);
  const noReplay = useApp(selectNoReplay);
  useEffect(() => {
    if (useApp.getState().whyHandler === null && useApp.getState().selectedNodes.length > 0) useApp.getState().select([]);
  }, [position]);

  const highlight = useMemo(
    () => (doc && detail ? pathHighlight(detail.step.explanation, doc.nodes.map((n) => n.id), { focus: why }) : null),
    [doc, detail, why],
  );

  if (!doc) {
    return (
      <div className="center-note" data-testid="debug-no-pipeline">
        <div className="box">
          <h2>No pipeline open</h2>
          <p>The debugger replays a trace through the pipeline open in the editor. Open or create one in Edit mode.</p>
          <button className="btn primary" onClick={() => useApp.getState().setMode('edit')}>Go to Edit</button>
        </div>
      </div>
    );
  }
  // The step's summary sits in a bar above the canvas, so it never covers a node.
  return (
    <div className="dbg-main">
      <div className="dbg-canvas-bar">
        {detail ? <StepBadge /> : <span className="dbg-muted">{!trace ? 'No trace open' : noReplay ? 'Not replayed: the pipeline has errors' : 'Replaying…'}</span>}
        <SearchNote />
        <span className="grow" />
        {detail && <Legend />}
        <ZoomButtons />
      </div>
      {/* data-anchor: the node the view keeps in sight when the step's path does not fit (for the layout tests). */}
      <div className="dbg-canvas-wrap" data-anchor={highlight?.anchor ?? undefined}>
        <Canvas key={pipelineId ?? 'none'} readOnly {...(highlight ? { nodeClasses: highlight.nodeClasses, edgeClasses: highlight.edgeClasses, follow: litNodes(highlight) } : {})} />
        <CompileBanner />
        <FailureBanner />
        {!trace && <NoTraceNote />}
      </div>
    </div>
  );
}

/**
 * The nodes the step went through (event, matchers tried, handlers that ran): the canvas keeps them in
 * view, and when they do not fit, the highlight's anchor (see `Highlight.anchor`).
 */
const LIT = /\bdbg-(event|pass|fail|fired|error|decider|focus)\b/;
function litNodes(highlight: Highlight): CanvasFollow {
  const ids = [...highlight.nodeClasses].filter(([, c]) => LIT.test(c)).map(([id]) => id);
  return { ids, ...(highlight.anchor ? { anchor: highlight.anchor, group: highlight.anchorGroup } : {}) };
}

function StepBadge() {
  const detail = useApp(selectDetail)!;
  const count = useApp((s) => s.trace?.event_count ?? 0);
  const pausedAt = useApp((s) => s.pausedAt);
  const { step } = detail;
  return (
    <div className="dbg-canvas-step" data-testid="canvas-step">
      <span className="num">Step {stepNumber(step.index)}<span className="of"> / {count.toLocaleString('en')}</span></span>
      <span className="mono type">{step.event.type}</span>
      <span className={`dec dec-${step.outcome}`}>{OUTCOME_LABEL[step.outcome]}</span>
      {step.counterfactual && <span className="flag cf" title="After a replayed block of an action that really ran">counterfactual</span>}
      {pausedAt?.index === step.index && (
        <span className="dbg-paused" data-testid="paused-at" role="status" title={`Paused at step ${stepNumber(pausedAt.index)}: ${pausedAt.label}`}>
          <DebugIcon name="breakpoint" size={10} filled /><span className="txt">Paused at step {stepNumber(pausedAt.index)}: {pausedAt.label}</span>
        </span>
      )}
    </div>
  );
}

const LEGEND = (
  <>
    <span><i className="sw pass" />passed</span>
    <span><i className="sw fail" />failed</span>
    <span><i className="sw fired" />fired</span>
    <span><i className="sw decider" />decided</span>
    <span><i className="sw skipped" />not reached</span>
  </>
);

/** In the bar when there is room; folded behind a "Legend" button when the bar is narrow (no wrapping). */
function Legend() {
  return (
    <>
      <div className="dbg-legend wide" aria-label="Canvas legend">{LEGEND}</div>
      <details className="dbg-legend-fold">
        <summary className="btn ghost">Legend</summary>
        <div className="dbg-legend pop" aria-label="Canvas legend">{LEGEND}</div>
      </details>
    </>
  );
}

/** The pipeline being edited has errors: the replay keeps showing the last version that loaded. */
function CompileBanner() {
  const compile = useApp(selectCompile);
  if (!compile || compile.ok) return null;
  const errors = compile.problems.filter((p) => p.severity === 'error');
  const has = `The pipeline has ${errors.length} error${errors.length === 1 ? '' : 's'}`;
  return (
    <div className="banner conflict" role="alert" data-testid="replay-compile-error" data-no-replay={compile.noReplay ? 'true' : undefined}>
      <div className="text">
        <strong>{compile.noReplay ? `${has} and no earlier version of it loads: the trace cannot be replayed until ${errors.length === 1 ? 'it is' : 'they are'} fixed` : `${has}: the replay shows the last version that loaded`}</strong>
        {errors[0]?.message}
      </div>
      <button className="btn" onClick={() => useApp.getState().setMode('edit')}>Fix in Edit</button>
    </div>
  );
}

/** Something broke that is not the user's doing (storage, the worker): said, with a way on. */
function FailureBanner() {
  const failure = useApp((s) => s.failure);
  const { replay } = useServices();
  if (!failure) return null;
  return (
    <div className="banner error" role="alert" data-testid="replay-failure">
      <div className="text"><strong>The replay stopped</strong>{failure}</div>
      <button className="btn" onClick={replay.restartReplay}>Replay again</button>
      <button className="btn ghost" onClick={() => useApp.getState().dismissFailure()}>Dismiss</button>
    </div>
  );
}

function NoTraceNote() {
  return (
    <div className="center-note dbg-no-trace" data-testid="debug-no-trace">
      <div className="box">
        <h2>No trace open</h2>
        <p>Import a recorded run (Hookwire trace, Claude Code transcript, OpenTelemetry GenAI spans, SWE-agent trajectory or OpenHands events) from the left, or drop the file here.</p>
      </div>
    </div>
  );
}
