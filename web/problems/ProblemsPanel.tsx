import { useState } from 'react';
import { formatPath } from '../../engine/model/problem.ts';
import { useApp, selectProblems } from '../store/appStore.ts';

/**
 * Every problem the engine reports for the open pipeline, code errors from the sandbox worker included;
 * clicking one selects its node [V2].
 */
export function ProblemsPanel() {
  const problems = useApp(selectProblems);
  const focusNode = useApp((s) => s.focusNode);
  const [open, setOpen] = useState(true);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  return (
    <section className="problems" data-testid="problems-panel" aria-label="Problems">
      <div className="problems-head" onClick={() => setOpen(!open)} role="button" aria-expanded={open}>
        <span>Problems</span>
        <span className="counts">
          <span className={`badge ${errors ? 'error' : ''}`} data-testid="error-count">{errors} error{errors === 1 ? '' : 's'}</span>
          <span className={`badge ${warnings ? 'warning' : ''}`} data-testid="warning-count">{warnings} warning{warnings === 1 ? '' : 's'}</span>
        </span>
        <span className="grow" />
        <span style={{ color: 'var(--faint)', fontWeight: 500 }}>{open ? 'Hide' : 'Show'}</span>
      </div>
      {open && (
        problems.length === 0 ? (
          <div className="empty" style={{ padding: 10, textAlign: 'left', paddingLeft: 14 }}>No problems: this pipeline loads as it is.</div>
        ) : (
          <ul className="problems-list" data-testid="problems-list">
            {problems.map((p, i) => (
              <li key={i} onClick={() => p.node_id !== undefined && focusNode(p.node_id)} data-testid="problem-item" data-node={p.node_id ?? ''} title={p.message}>
                <span className={`sev ${p.severity}`} aria-label={p.severity} />
                <span className="msg">{p.message}</span>
                <span className="where">{p.node_id ?? formatPath(p.path)} · {p.code}</span>
              </li>
            ))}
          </ul>
        )
      )}
    </section>
  );
}
