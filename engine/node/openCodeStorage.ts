// OpenCode's older on-disk storage, assembled into the shape `opencode export` writes (#29, SPEC I18):
// storage/session/<projectID>/<sessionID>.json (the session), storage/message/<sessionID>/<messageID>.json
// (each message's info), storage/part/<messageID>/<partID>.json (its parts) — anomalyco/opencode
// packages/opencode/src/storage (keys ["session", projectID, id], ["message", sessionID, id], ["part", messageID, id]).
// Messages and parts are ordered by id, as OpenCode's own Session.messages / MessageV2.parts sort them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SESSION_FILE = /^(.*)[\\/]storage[\\/]session[\\/][^\\/]+[\\/]([^\\/]+)\.json$/;

/**
 * For a session file of OpenCode's storage, the whole session as JSON text `{info, messages: [{info, parts}]}`,
 * in pieces (the session's info, then one message with its parts a piece), made as they are taken, so only the
 * current message is held [I1]; null for any other path. A message or part file that cannot be read or parsed is
 * kept as `{unreadable: why}` in its place, so the importer lists it (nothing is dropped silently).
 */
export function assembleOpenCodeSession(path: string): Iterable<string> | null {
  const m = SESSION_FILE.exec(path);
  if (!m) return null;
  const storage = join(m[1] as string, 'storage');
  const id = m[2] as string;
  const info = readJson(path);
  if (!info.ok) return null;
  return sessionPieces(storage, id, info.value);
}

function* sessionPieces(storage: string, id: string, info: unknown): Generator<string> {
  yield `{"info":${JSON.stringify(info)},"messages":[`;
  let sep = '';
  for (const file of jsonFiles(join(storage, 'message', id))) {
    const msg = readJson(join(storage, 'message', id, file));
    let message: unknown;
    if (!msg.ok) message = { unreadable: `message file ${file}: ${msg.why}` };
    else {
      const msgId = file.replace(/\.json$/, '');
      const parts = jsonFiles(join(storage, 'part', msgId)).map((f) => {
        const part = readJson(join(storage, 'part', msgId, f));
        return part.ok ? part.value : { unreadable: `part file ${msgId}/${f}: ${part.why}` };
      });
      message = { info: msg.value, parts };
    }
    yield `${sep}${JSON.stringify(message)}`;
    sep = ',';
  }
  yield ']}';
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

function readJson(path: string): { ok: true; value: unknown } | { ok: false; why: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { ok: false, why: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, why: text.trim() === '' ? 'empty' : 'not valid JSON (cut off?)' };
  }
}
