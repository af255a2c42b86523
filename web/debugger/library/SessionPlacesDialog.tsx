import { placeOs, SESSION_PLACES, TRACE_FORMAT_LABELS } from '../../../engine/app.ts';
import { Dialog } from '../../ui/Dialog.tsx';

const OS_NAMES = { linux: 'Linux', macos: 'macOS', windows: 'Windows' } as const;

/**
 * Where each agent keeps its sessions (the engine's table, #29), for this computer's OS: the files to pick in
 * Import trace. The paths are text to read and copy, nothing here opens or reads them.
 */
export function SessionPlacesDialog({ onClose }: { onClose: () => void }) {
  const os = placeOs(typeof navigator === 'undefined' ? '' : navigator.userAgent);
  return (
    <Dialog title="Where agents keep their sessions" onClose={onClose} testId="session-places"
      footer={<button className="btn primary" onClick={onClose} data-testid="session-places-close">Close</button>}>
      <p className="hint">The default places on {OS_NAMES[os]}. Pick one of these files in Import trace (or drop it here); the format is recognised by its content. <code>hookwire sessions</code> lists the ones on a machine.</p>
      <table className="dbg-session-places" data-testid="session-places-table">
        <thead><tr><th>Agent</th><th>Session files</th></tr></thead>
        <tbody>
          {SESSION_PLACES.map((p) => (
            <tr key={p.agent} data-testid="session-place" data-agent={p.agent} title={TRACE_FORMAT_LABELS[p.format]}>
              <td>{p.label}</td>
              <td><code data-testid="session-place-path">{p[os]}</code>{p.note && <div className="hint">{p.note}</div>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
