import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { emptyPipeline } from '../../engine/app.ts';
import { uniquePipelineName } from '../persistence/library.ts';
import { useServices } from '../services/AppServices.tsx';

/**
 * "New pipeline" asks for the name first (as a new file does), with a free "Untitled pipeline" name typed in
 * and selected, so Enter alone still makes one quickly and typing replaces it.
 */
export function NewPipelineDialog({ onClose }: { onClose: () => void }) {
  const { workspace } = useServices();
  const [name, setName] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    let gone = false;
    void uniquePipelineName(workspace.db, 'Untitled pipeline').then((free) => {
      if (gone || input.current?.value) return;
      setName(free);
      requestAnimationFrame(() => input.current?.select());
    });
    return () => {
      gone = true;
    };
  }, [workspace.db]);
  const trimmed = name.trim();
  const create = () => {
    if (!trimmed) return;
    onClose();
    void workspace.newPipeline(emptyPipeline(trimmed));
  };
  return (
    <Dialog title="New pipeline" onClose={onClose} testId="new-pipeline-dialog"
      footer={<>
        <button className="btn" onClick={onClose}>Cancel</button>
        <button className="btn primary" onClick={create} disabled={!trimmed} data-testid="new-pipeline-create">Create</button>
      </>}>
      <form onSubmit={(e) => { e.preventDefault(); create(); }}>
        <div className="field">
          <label htmlFor="new-pipeline-name">Name</label>
          <input id="new-pipeline-name" ref={input} className="input" autoFocus value={name} spellCheck={false}
            onChange={(e) => setName(e.target.value)} data-testid="new-pipeline-name" />
          <div className="hint">Shown in the library and exported as the pipeline's <code>name</code>.</div>
        </div>
      </form>
    </Dialog>
  );
}
