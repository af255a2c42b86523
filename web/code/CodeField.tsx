import { lazy, Suspense, useState } from 'react';
import type { CodeSpec } from '../../engine/model/pipelineSchema.ts';
import { DEFAULT_CODE_MEMORY_MB, DEFAULT_CODE_TIMEOUT_MS } from '../../engine/sandbox/types.ts';
import { NumberField, SelectField } from '../inspector/fields.tsx';
import { compact } from '../inspector/useUpdateNode.ts';
import type { CodeMarker } from './MonacoEditor.tsx';
import { RunSample } from './RunSample.tsx';
import { useApp } from '../store/appStore.ts';

// Monaco is ~4 MB: it loads only when a code node is inspected, so the canvas never waits for it.
const MonacoEditor = lazy(() => import('./MonacoEditor.tsx'));

/** Code of a code handler or code matcher: language, limits, the editor with its markers, and a trial run. */
export function CodeField({ nodeId, role, spec, onChange }: { nodeId: string; role: 'handler' | 'matcher'; spec: CodeSpec; onChange: (s: CodeSpec) => void }) {
  const [markers, setMarkers] = useState<CodeMarker[]>([]);
  return (
    <div data-testid="code-field">
      <SelectField label="Language" value={spec.language} options={[{ value: 'ts', label: 'TypeScript' }, { value: 'js', label: 'JavaScript' }]}
        onChange={(language) => onChange({ ...spec, language })} testId="code-language" />
      <div className="field">
        <span className="field-label">Source</span>
        <div className="code-box">
          <Suspense fallback={<div className="code-loading" data-testid="code-loading">Loading the code editor…</div>}>
            <MonacoEditor key={nodeId} path={`file:///hookwire/${encodeURIComponent(nodeId)}.${spec.language}`} language={spec.language === 'ts' ? 'typescript' : 'javascript'}
              value={spec.source} onChange={(source) => onChange({ ...spec, source })} onMarkers={(m, source) => {
                setMarkers(m);
                useApp.getState().setTypeMarks(nodeId, { source, markers: m });
              }} />
          </Suspense>
        </div>
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
      </div>
      <div className="row">
        <div className="grow">
          <NumberField label="Time limit (ms)" value={spec.timeout_ms} optional integer min={1} placeholder={String(DEFAULT_CODE_TIMEOUT_MS)}
            onChange={(timeout_ms) => onChange(compact({ ...spec, timeout_ms }))} />
        </div>
        <div className="grow">
          <NumberField label="Memory (MB)" value={spec.memory_mb} optional min={1} placeholder={String(DEFAULT_CODE_MEMORY_MB)}
            onChange={(memory_mb) => onChange(compact({ ...spec, memory_mb }))} />
        </div>
      </div>
      <RunSample role={role} spec={spec} nodeId={nodeId} />
    </div>
  );
}
