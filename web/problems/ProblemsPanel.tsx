import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { formatPath, type Problem } from '../../engine/app.ts';
import { focusNodeElement } from '../canvas/focusNodeElement.ts';
import { useApp, selectProblems } from '../store/appStore.ts';
import { nodeName } from '../model/nodeName.ts';
import type { Pipeline } from '../../engine/app.ts';

/** Where a problem is, as the user sees it: the node's name and its id ("Dangerous tools (matcher)"), else the JSON path. */
export function problemPlace(p: Problem, doc: Pipeline | null): string {
  if (p.node_id === undefined) return formatPath(p.path);
  const node = doc?.nodes.find((n) => n.id === p.node_id);
  const name = node ? nodeName(node) : p.node_id;
  return name === p.node_id ? name : `${name} (${p.node_id})`;
}
import { RefusedFileProblems } from './RefusedFileProblems.tsx';
import { useRefusedFile } from '../io/refusedFile.ts';

/** Ctrl/⌘+Shift+M focuses the Problems list, as in VS Code. */
export const PROBLEMS_SHORTCUT = 'Ctrl+Shift+M';

/** Selects the problem's node; a problem in code also puts the code editor's cursor on its line [V2][V5]. */
function jumpTo(p: Problem): void {
  if (p.node_id === undefined) return;
  const s = useApp.getState();
  if (p.at) s.revealCode(p.node_id, p.at.line, p.at.column);
  else {
    s.focusNode(p.node_id);
    focusNodeElement(p.node_id);
  }
}

/**
 * Every problem the engine reports for the open pipeline, code errors from the sandbox worker included.
 * A listbox for the keyboard: Ctrl+Shift+M or Tab reaches it, the arrow keys move, Enter jumps to the
 * node (and the line, for code), Escape goes back to where the focus was. A click jumps too.
 */
export function ProblemsPanel() {
  const problems = useApp(selectProblems);
  // The document the problems are about (not the one being typed into: it changes every key).
  const linted = useApp((s) => s.lintedDoc);
  const [open, setOpen] = useState(true);
  const [active, setActive] = useState(0);
  const returnTo = useRef<HTMLElement | null>(null);
  const panel = useRef<HTMLElement>(null);
  // A file `hookwire ui` was given and the engine refused counts too (RefusedFileProblems lists it).
  const refused = useRefusedFile((r) => r.refused);
  const errors = problems.filter((p) => p.severity === 'error').length + (refused?.problems.filter((p) => p.severity === 'error').length ?? 0);
  const warnings = problems.length + (refused?.problems.length ?? 0) - errors;
  const current = Math.max(0, Math.min(active, problems.length - 1));

  const focusItem = (listbox: HTMLElement, i: number) => {
    setActive(i);
    listbox.querySelectorAll<HTMLElement>('[role="option"]')[i]?.focus();
  };

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!((e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'm')) return;
      if (document.querySelector('dialog:modal')) return;
      e.preventDefault();
      e.stopPropagation();
      const from = document.activeElement as HTMLElement | null;
      if (from && !panel.current?.contains(from)) returnTo.current = from;
      const target = () => panel.current?.querySelector<HTMLElement>('[role="option"][tabindex="0"], [data-testid="problems-empty"]');
      // Open already: focus now. Closed: after the list renders.
      const now = target();
      if (now) now.focus();
      else {
        setOpen(true);
        requestAnimationFrame(() => target()?.focus());
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const goBack = () => {
    const to = returnTo.current;
    returnTo.current = null;
    if (to && to.isConnected) to.focus();
    else document.querySelector<HTMLElement>('.react-flow__pane')?.focus();
  };

  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const last = problems.length - 1;
    const box = e.currentTarget;
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusItem(box, Math.min(last, current + 1)),
      ArrowUp: () => focusItem(box, Math.max(0, current - 1)),
      Home: () => focusItem(box, 0),
      End: () => focusItem(box, last),
      Enter: () => problems[current] && jumpTo(problems[current]),
      ' ': () => problems[current] && jumpTo(problems[current]),
      Escape: goBack,
    };
    const run = keys[e.key];
    if (!run) return;
    e.preventDefault();
    e.stopPropagation();
    run();
  };

  return (
    <section ref={panel} className="problems" data-testid="problems-panel" aria-label="Problems"
      onFocus={(e) => {
        const from = e.relatedTarget as HTMLElement | null;
        if (from && !e.currentTarget.contains(from)) returnTo.current = from;
      }}>
      <button type="button" className="problems-head" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="problems-toggle"
        aria-keyshortcuts="Control+Shift+M" title={`Problems (${PROBLEMS_SHORTCUT} to go to the list)`}>
        <span>Problems</span>
        <span className="counts">
          <span className={`badge ${errors ? 'error' : ''}`} data-testid="error-count">{errors} error{errors === 1 ? '' : 's'}</span>
          <span className={`badge ${warnings ? 'warning' : ''}`} data-testid="warning-count">{warnings} warning{warnings === 1 ? '' : 's'}</span>
        </span>
        <span className="grow" />
        <span className="problems-hint">{PROBLEMS_SHORTCUT}</span>
        <span style={{ color: 'var(--faint)', fontWeight: 500 }}>{open ? 'Hide' : 'Show'}</span>
      </button>
      {open && refused && <RefusedFileProblems refused={refused} />}
      {open && (
        problems.length === 0 ? (
          <div tabIndex={-1} className="empty" style={{ padding: 10, textAlign: 'left', paddingLeft: 14 }} data-testid="problems-empty"
            onKeyDown={(e) => e.key === 'Escape' && goBack()}>No problems: this pipeline loads as it is.</div>
        ) : (
          <ul className="problems-list" data-testid="problems-list" role="listbox" aria-label="Problems" onKeyDown={onListKey}>
            {problems.map((p, i) => (
              <li key={i} role="option" aria-selected={i === current} tabIndex={i === current ? 0 : -1}
                onClick={() => { setActive(i); jumpTo(p); }} onFocus={() => setActive(i)}
                data-testid="problem-item" data-node={p.node_id ?? ''} title={p.message}>
                <span className={`sev ${p.severity}`} aria-label={p.severity} role="img" />
                <span className="msg">{p.message}</span>
                <span className="where">{problemPlace(p, linted)}{p.at ? `:${p.at.line}:${p.at.column}` : ''} · {p.code}</span>
              </li>
            ))}
          </ul>
        )
      )}
    </section>
  );
}
