import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { type CodeSpec, DEFAULT_CODE_FUEL, DEFAULT_CODE_MEMORY_MB, safetyNetMs } from '../../engine/app.ts';
import { NumberField, SelectField } from '../inspector/fields.tsx';
import { compact } from '../inspector/useUpdateNode.ts';
import { Icon } from '../ui/Icon.tsx';
import type { CodeMarker, EditorHandle } from './MonacoEditor.tsx';
import { useApp } from '../store/appStore.ts';

// Monaco is ~4 MB: it loads only when a code node is inspected, so the canvas never waits for it.
const MonacoEditor = lazy(() => import('./MonacoEditor.tsx'));

/** Ctrl/⌘+Shift+E toggles the full-screen editor (E for expand; neither Monaco nor Chrome binds it). */
export const EXPAND_SHORTCUT = 'Ctrl+Shift+E';
const isExpandKey = (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'e';

/**
 * Code of a code handler or code matcher: language, limits, the editor with its markers. It runs with "Run node"
 * at the top of the inspector (RunNodePanel.tsx), on the selected step or a typed event, like any node.
 */
export function CodeField({ nodeId, spec, onChange }: { nodeId: string; spec: CodeSpec; onChange: (s: CodeSpec) => void }) {
  const [markers, setMarkers] = useState<CodeMarker[]>([]);
  const [expanded, setExpanded] = useState(false);
  const box = useRef<HTMLDialogElement>(null);
  const editor = useRef<EditorHandle | null>(null);
  const name = useApp((s) => {
    const n = s.doc?.nodes.find((x) => x.id === nodeId);
    return n?.kind === 'handler' ? n.name : (n?.label ?? nodeId);
  });
  const reveal = useApp((s) => (s.codeReveal?.id === nodeId ? s.codeReveal : null));

  // Full screen is the same element shown as a modal <dialog>: the editor is not re-created, so its text,
  // cursor, selection and undo stack stay, and the page behind it is inert until Escape or the button.
  const shown = useRef(false);
  useEffect(() => {
    const d = box.current;
    if (!d || shown.current === expanded) return;
    shown.current = expanded;
    if (d.open) d.close();
    if (expanded) d.showModal();
    editor.current?.focus();
  }, [expanded]);

  const markerList = (
    <ul className="markers" data-testid="code-markers" aria-label="Code problems">
      {markers.length === 0 ? (
        <li className="ok">No problems in the code.</li>
      ) : (
        markers.map((m, i) => (
          <li key={i} className={m.severity} data-testid="code-marker" data-severity={m.severity}>
            <span className="pos">{m.line}:{m.column}</span> {m.message}
          </li>
        ))
      )}
    </ul>
  );

  return (
    <div data-testid="code-field" onKeyDownCapture={(e) => {
      if (!isExpandKey(e)) return;
      e.preventDefault();
      e.stopPropagation();
      setExpanded(!expanded);
    }}>
      <SelectField label="Language" value={spec.language} options={[{ value: 'ts', label: 'TypeScript' }, { value: 'js', label: 'JavaScript' }]}
        onChange={(language) => onChange({ ...spec, language })} testId="code-language" />
      <div className="field">
        <div className="row code-head">
          <span className="field-label grow">Source</span>
          <span className="hint" data-testid="code-tab-hint">Esc, Tab leaves the editor</span>
          <button type="button" className="btn ghost small" onClick={() => setExpanded(true)} data-testid="code-expand"
            aria-keyshortcuts="Control+Shift+E" title={`Edit the code full screen (${EXPAND_SHORTCUT})`}>
            <Icon name="expand" size={13} /> Full screen
          </button>
        </div>
        <dialog ref={box} className="code-box" aria-label={`Code of ${name}`} data-testid="code-box" data-expanded={expanded}
          onCancel={(e) => {
            // Escape that Monaco did not use itself (closing a suggestion list, say) leaves full screen.
            e.preventDefault();
            setExpanded(false);
          }}>
          {expanded && (
            <header className="code-box-head">
              <Icon name="code" />
              <span className="grow">Code of <strong>{name}</strong></span>
              <span className="hint">Esc or {EXPAND_SHORTCUT} to leave</span>
              <button type="button" className="btn" onClick={() => setExpanded(false)} data-testid="code-collapse" aria-keyshortcuts="Escape">
                <Icon name="collapse" size={13} /> Exit full screen
              </button>
            </header>
          )}
          <div className="code-box-editor">
            <Suspense fallback={<div className="code-loading" data-testid="code-loading">Loading the code editor…</div>}>
              <MonacoEditor key={nodeId} path={`file:///hookwire/${encodeURIComponent(nodeId)}.${spec.language}`} language={spec.language === 'ts' ? 'typescript' : 'javascript'}
                value={spec.source} onChange={(source) => onChange({ ...spec, source })} handle={editor} reveal={reveal} label={`Code of ${name}`}
                onMarkers={(m, source) => {
                  setMarkers(m);
                  useApp.getState().setTypeMarks(nodeId, { source, markers: m });
                }} />
            </Suspense>
          </div>
          {expanded && markerList}
        </dialog>
        {!expanded && markerList}
      </div>
      <div className="row">
        <div className="grow">
          <NumberField label="Time limit (ms)" value={spec.timeout_ms} optional integer min={1} placeholder={String(safetyNetMs(spec.fuel ?? DEFAULT_CODE_FUEL))}
            onChange={(timeout_ms) => onChange(compact({ ...spec, timeout_ms }))} />
        </div>
        <div className="grow">
          <NumberField label="Memory (MB)" value={spec.memory_mb} optional min={1} placeholder={String(DEFAULT_CODE_MEMORY_MB)}
            onChange={(memory_mb) => onChange(compact({ ...spec, memory_mb }))} />
        </div>
      </div>
    </div>
  );
}
