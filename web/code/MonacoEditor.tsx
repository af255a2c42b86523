import { useEffect, useRef } from 'react';
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TsWorker from 'monaco-editor/language/typescript/ts.worker?worker';
import { HANDLER_API_DTS, HANDLER_API_LIB, HANDLER_API_URI } from '../../engine/app.ts';
import { tabFrom } from '../ui/tabFrom.ts';

/**
 * Monaco, fully offline: bundled workers (no CDN, no loader), TypeScript with the handler API's declarations
 * so `ctx.` completes and type errors show as markers. This module is loaded lazily (see CodeField).
 */
export interface CodeMarker {
  severity: 'error' | 'warning';
  message: string;
  line: number;
  column: number;
}

/** What the code field may ask of its editor: focus it, or put the cursor on a line (a problem's place). */
export interface EditorHandle {
  focus(): void;
}

/** A request to put the cursor at a place; a new `n` asks again for the same place. */
export interface RevealRequest {
  line: number;
  column: number;
  n: number;
}

let configured = false;

function configure(): void {
  if (configured) return;
  configured = true;
  (self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
    getWorker: (_id: string, label: string) => (label === 'typescript' || label === 'javascript' ? new TsWorker() : new EditorWorker()),
  };
  const ts = monaco.typescript;
  for (const defaults of [ts.typescriptDefaults, ts.javascriptDefaults]) {
    defaults.setCompilerOptions({
      target: ts.ScriptTarget.ES2020,
      module: ts.ModuleKind.ESNext,
      strict: true,
      noEmit: true,
      allowNonTsExtensions: true,
      checkJs: true,
      lib: [...HANDLER_API_LIB],
    });
    defaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
    defaults.addExtraLib(HANDLER_API_DTS, HANDLER_API_URI);
  }
}

/**
 * Warms the TypeScript worker once the page is idle after the editor opens: the worker loads its lib files and
 * type-checks the handler API on the first request, which took seconds, so the first Ctrl+Space waited for it.
 * One completion request at the model's start does that work while the person reads the template.
 */
function warmWorker(uri: monaco.Uri, language: 'typescript' | 'javascript', done: () => void): () => void {
  let gone = false;
  const run = () => {
    if (gone) return;
    const get = language === 'typescript' ? monaco.typescript.getTypeScriptWorker : monaco.typescript.getJavaScriptWorker;
    void get()
      .then((worker) => (gone ? null : worker(uri)))
      .then((client) => (gone || !client ? null : client.getCompletionsAtPosition(uri.toString(), 0)))
      .then((answer) => {
        if (!gone && answer !== null) done();
      })
      .catch(() => undefined);
  };
  const idle = (globalThis as { requestIdleCallback?: (f: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
  if (idle) idle(run, { timeout: 2000 });
  else setTimeout(run, 200);
  return () => {
    gone = true;
  };
}

function toMarkers(uri: monaco.Uri): CodeMarker[] {
  return monaco.editor
    .getModelMarkers({ resource: uri })
    .filter((m) => m.severity >= monaco.MarkerSeverity.Warning)
    .map((m) => ({
      severity: m.severity === monaco.MarkerSeverity.Error ? 'error' : 'warning',
      message: m.message,
      line: m.startLineNumber,
      column: m.startColumn,
    }));
}

const MODIFIER_KEYS: ReadonlySet<monaco.KeyCode> = new Set([monaco.KeyCode.Shift, monaco.KeyCode.Ctrl, monaco.KeyCode.Alt, monaco.KeyCode.Meta]);

function revealAt(editor: monaco.editor.IStandaloneCodeEditor, at: RevealRequest): void {
  editor.setPosition({ lineNumber: at.line, column: at.column });
  editor.revealLineInCenterIfOutsideViewport(at.line);
  editor.focus();
}

export default function MonacoEditor({ path, language, value, onChange, onMarkers, handle, reveal, label }: {
  path: string; language: 'typescript' | 'javascript'; value: string; onChange: (v: string) => void; onMarkers: (m: CodeMarker[], source: string) => void;
  handle?: { current: EditorHandle | null }; reveal?: RevealRequest | null; label?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef({ onChange, onMarkers });
  latest.current = { onChange, onMarkers };
  const pendingReveal = useRef(reveal);
  pendingReveal.current = reveal;

  useEffect(() => {
    configure();
    const uri = monaco.Uri.parse(path);
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(value, language, uri);
    const editor = monaco.editor.create(host.current as HTMLDivElement, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12.5,
      fontFamily: "'JetBrains Mono Variable', 'DejaVu Sans Mono', monospace",
      lineNumbersMinChars: 3,
      scrollBeyondLastLine: false,
      tabSize: 2,
      renderLineHighlight: 'none',
      fixedOverflowWidgets: true,
      wordWrap: 'on',
      scrollbar: { verticalScrollbarSize: 8, horizontalScrollbarSize: 8 },
      padding: { top: 6 },
      ariaLabel: `${label ?? 'Code'}. Tab indents; Escape then Tab leaves the editor`,
    });
    editorRef.current = editor;
    if (handle) handle.current = { focus: () => editor.focus() };
    // A problem picked before the editor loaded (it loads lazily) puts the cursor on its line now.
    if (pendingReveal.current) revealAt(editor, pendingReveal.current);
    // Tab indents, so the keyboard would be trapped: Escape then Tab (Shift+Tab) moves the focus out, as in
    // CodeMirror (WCAG 2.1.2). Any other key in between makes Tab indent again.
    let escaped = false;
    const keys = editor.onKeyDown((e) => {
      if (e.keyCode === monaco.KeyCode.Escape) {
        escaped = true;
        return;
      }
      // Shift pressed on the way to Shift+Tab arrives as a key of its own.
      if (MODIFIER_KEYS.has(e.keyCode)) return;
      const leave = escaped && e.keyCode === monaco.KeyCode.Tab && !e.ctrlKey && !e.altKey && !e.metaKey;
      escaped = false;
      if (!leave || !host.current) return;
      const next = tabFrom(host.current, e.shiftKey);
      if (!next) return;
      e.preventDefault();
      e.stopPropagation();
      next.focus();
    });
    const sub = model.onDidChangeContent(() => latest.current.onChange(model.getValue()));
    // data-ts-warm on the host says the worker has answered its first request (e2e editor-code checks it).
    const stopWarm = warmWorker(uri, language, () => host.current?.setAttribute('data-ts-warm', 'done'));
    const markers = monaco.editor.onDidChangeMarkers((uris) => {
      if (uris.some((u) => u.toString() === uri.toString())) latest.current.onMarkers(toMarkers(uri), model.getValue());
    });
    return () => {
      stopWarm();
      keys.dispose();
      sub.dispose();
      markers.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = null;
      if (handle) handle.current = null;
    };
    // The editor is made once per node (the parent keys it); value changes are synced below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);

  // Undo/redo in the app, or another tab, can change the source: bring the editor up to date.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getValue() !== value) model.setValue(value);
  }, [value]);

  useEffect(() => {
    if (reveal && editorRef.current) revealAt(editorRef.current, reveal);
  }, [reveal]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getLanguageId() !== language) monaco.editor.setModelLanguage(model, language);
  }, [language]);

  // `nokey`: React Flow's document-wide key handler (Space pans, Delete removes nodes) leaves this subtree
  // alone. Monaco 0.57 takes text through a plain `div.native-edit-context`, which React Flow does not see as
  // a text field, so without it Space never reaches the editor (STACK-NOTES, xyflow #5729).
  return <div ref={host} className="nokey" style={{ height: '100%', width: '100%' }} data-testid="monaco-host" />;
}
