import { useState } from 'react';
import { TRACE_FORMAT_LABELS } from '../../../engine/app.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { SessionPlacesDialog } from './SessionPlacesDialog.tsx';
import { useApp } from '../../store/appStore.ts';
import { useServices } from '../../services/AppServices.tsx';

const SHOWN = 200;

/** Problems that mean "this file is not a recording": the way on is to find the agent's own session file. */
const NOT_A_RECORDING = new Set(['unknown_format', 'empty', 'binary']);

/**
 * An import that did not read cleanly: every problem with its line number, and the choice to keep the good
 * events or discard the import (a failed import has nothing to keep).
 */
export function ImportResultDialog() {
  const r = useApp((s) => s.importResult);
  const { traces } = useServices();
  const [places, setPlaces] = useState(false);
  if (!r) return null;
  const errors = r.problems.filter((p) => p.severity === 'error');
  const failed = r.status === 'failed' || !r.traceId;
  const close = () => void traces.discardImport();
  // ×, Escape or the backdrop decide nothing: a partial import stays in the library as "review import"
  // (opening it shows this dialog again). Only "Discard import" removes it.
  const later = () => useApp.getState().closeImportResult();
  const notARecording = failed && r.problems.some((p) => p.fatal && NOT_A_RECORDING.has(p.code));
  return (
    <>
    <Dialog title={failed ? `Cannot import ${r.fileName}` : `${r.fileName}: some lines could not be read`} onClose={failed ? close : later} testId="import-result"
      footer={failed ? (
        <button className="btn primary" onClick={close} data-testid="import-result-close" data-autofocus>Close</button>
      ) : (
        <>
          <button className="btn" onClick={close} data-testid="import-discard">Discard import</button>
          {/* The dialog opens on its answer (it opened on the ×): Enter keeps the good events, which loses nothing. */}
          <button className="btn primary" onClick={() => void traces.keepImport()} data-testid="import-keep" data-autofocus>
            Keep {r.events.toLocaleString('en')} good event{r.events === 1 ? '' : 's'}
          </button>
        </>
      )}>
      <p className="dbg-import-summary" data-testid="import-summary">
        {failed
          ? `Nothing was imported${r.format ? ` (read as ${TRACE_FORMAT_LABELS[r.format]})` : ''}.`
          : `${r.events.toLocaleString('en')} events were read; ${errors.length} line${errors.length === 1 ? ' was' : 's were'} dropped. Keep the good events, or discard the import and fix the file. Closing this decides later: the import waits in the library.`}
      </p>
      <ul className="problem-list" data-testid="import-line-problems">
        {r.problems.slice(0, SHOWN).map((p, i) => (
          <li key={i} className={p.severity} data-testid="import-line-problem" data-line={p.line} data-code={p.code}>
            {p.line > 0 && <span className="dbg-line-no">line {p.line}</span>}
            {p.detail}
            <span className="path">{p.code}{p.severity === 'warning' ? ' · kept' : ''}</span>
          </li>
        ))}
      </ul>
      {r.problems.length > SHOWN && <p className="hint">…and {r.problems.length - SHOWN} more.</p>}
      {r.notes.length > 0 && (
        <ul className="dbg-notes">{r.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>
      )}
      {notARecording && (
        <p className="hint" data-testid="import-way-on">
          Pick a session file as the agent wrote it; each agent keeps them in its own place.{' '}
          <button type="button" className="btn link" onClick={() => setPlaces(true)} data-testid="import-places-open">Where are my sessions?</button>
        </p>
      )}
    </Dialog>
    {/* Over this dialog (its sibling, not inside it: Escape there closes only it); closing it comes back here. */}
    {places && <SessionPlacesDialog onClose={() => setPlaces(false)} />}
    </>
  );
}
