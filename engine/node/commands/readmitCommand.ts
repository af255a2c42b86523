// `hookwire readmit <recording> --reason <text>`: a `claude-hook --record` (or `hook --agent … --record`) recording
// refused for its integrity — lines cut off below its anchor [K6], a broken hash chain [K4] — taken back as it now
// is, deliberately. The same re-admission as hookwire serve's POST /v1/traces/<id>/readmit (serve/integrity.ts
// readmitRecording); the reason and the overridden error are appended to `<recording>.readmissions.jsonl`.
import { Integrity, readmitRecording } from '../serve/integrity.ts';
import { CliError, EXIT, type Io } from '../cliIo.ts';

export interface ReadmitOptions {
  reason?: string;
}

/** Exit 0: re-admitted; 1: nothing to re-admit (no integrity error); 2: no reason, or the recording cannot be read. */
export async function readmitCommand(file: string, o: ReadmitOptions, io: Io, now: () => Date = () => new Date()): Promise<number> {
  const reason = o.reason?.trim() ?? '';
  if (reason === '' || reason.length > 1000) throw new CliError('--reason must say why the recording is re-admitted (1 to 1000 characters): it is kept with the re-admission');
  const integrity = Integrity.besideRecording(file);
  await integrity.start();
  const r = await readmitRecording(integrity, file, { reason, at: now().toISOString() });
  if (!r.ok) {
    io.err(`hookwire readmit: ${r.reason}\n`);
    return r.status === 409 && r.reason.includes('nothing to re-admit') ? EXIT.failed : EXIT.cannotRun;
  }
  io.out(`re-admitted ${file}: it was refused with: ${r.problem}\nThe re-admission is recorded in ${file}.readmissions.jsonl; the next hook call goes on from the recording as it now is.\n`);
  return EXIT.ok;
}
