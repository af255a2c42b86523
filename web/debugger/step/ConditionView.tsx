import type { ConditionExplain } from '../../../engine/app.ts';
import { expectedText, OP_LABEL, valueLine } from '../model/labels.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';

/** A matcher's condition as the engine evaluated it [X2][X3]: each clause with expected and actual values, and the near-miss hint. */
export function ConditionView({ c }: { c: ConditionExplain }) {
  switch (c.kind) {
    case 'clause':
      return (
        <div className={`dbg-clause ${c.pass ? 'pass' : 'fail'}`} data-testid="clause" data-pass={c.pass}>
          <span className="verdict"><DebugIcon name={c.pass ? 'check' : 'cross'} size={11} strokeWidth={2.2} /></span>
          <div className="body">
            <div>
              <span className="mono path">{c.path}</span> <span className="op">{OP_LABEL[c.op]}</span> <span className="mono expected">{expectedText(c.op, c.expected)}</span>
            </div>
            <div className="actual">
              actual: {c.missing ? <span className="missing">missing</span> : <span className="mono">{valueLine(c.actual, 160)}</span>}
            </div>
            {c.hint && <div className="hint" data-testid="near-miss-hint">{c.hint}</div>}
          </div>
        </div>
      );
    case 'all':
    case 'any':
      return (
        <div className={`dbg-group ${c.kind} ${c.pass ? 'pass' : 'fail'}`}>
          <div className="group-label">{c.kind === 'all' ? 'all of' : 'any of'}{c.children.length === 0 ? ' (empty)' : ''}</div>
          {c.children.map((child, i) => <ConditionView key={i} c={child} />)}
        </div>
      );
    case 'not':
      return (
        <div className={`dbg-group not ${c.pass ? 'pass' : 'fail'}`}>
          <div className="group-label">not</div>
          <ConditionView c={c.child} />
        </div>
      );
    case 'code':
      return (
        <div className={`dbg-clause ${c.pass ? 'pass' : 'fail'}`} data-testid="clause" data-pass={c.pass}>
          <span className="verdict"><DebugIcon name={c.pass ? 'check' : 'cross'} size={11} strokeWidth={2.2} /></span>
          <div className="body">
            <div>code returned {c.pass ? 'true' : 'not true'}{c.duration_ms > 0 ? ` · ${c.duration_ms.toFixed(2)} ms` : ''}</div>
            {c.error && <div className="hint">{c.error.kind}: {c.error.message}{c.error.line !== undefined ? ` (line ${c.error.line})` : ''}</div>}
            {c.logs.length > 0 && <pre className="dbg-pre small">{c.logs.join('\n')}</pre>}
          </div>
        </div>
      );
  }
}
