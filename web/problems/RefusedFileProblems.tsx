import { formatPath } from '../../engine/app.ts';
import { useRefusedFile, type RefusedFile } from '../io/refusedFile.ts';

/**
 * The problems of a pipeline file the app was asked to open and the engine refused (`hookwire ui
 * bad.pipeline.json`): the file is not in the library, so its problems are listed here, with the path of
 * each in the document, until the person dismisses them.
 */
export function RefusedFileProblems({ refused }: { refused: RefusedFile }) {
  const errors = refused.problems.filter((p) => p.severity === 'error').length;
  return (
    <div className="problems-refused" data-testid="refused-file" role="group" aria-label={`Problems of ${refused.name}`}>
      <div className="problems-refused-head">
        <b>{refused.name}</b> cannot be opened: {errors} error{errors === 1 ? '' : 's'}. It was not added; the pipeline below is another one. Fix the file and run <code>hookwire ui</code> again.
        <button type="button" className="btn ghost" data-testid="refused-dismiss" onClick={() => useRefusedFile.getState().set(null)}>Dismiss</button>
      </div>
      <ul className="problems-list" aria-label={`Problems of ${refused.name}`}>
        {refused.problems.map((p, i) => (
          <li key={i} data-testid="refused-problem" tabIndex={0} title={p.message}>
            <span className={`sev ${p.severity}`} aria-label={p.severity} role="img" />
            <span className="msg">{p.message}</span>
            <span className="where">{refused.name} · {formatPath(p.path)} · {p.code}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
