import type { OpenManifest } from '../../engine/app.ts';
import { checkImport } from '../model/exportPipeline.ts';
import { getSetting, readPipeline, setSetting } from '../persistence/library.ts';
import { readTraceRecord } from '../persistence/traceLibrary.ts';
import type { AppServices } from '../startApp.ts';
import { useRefusedFile } from './refusedFile.ts';

/** Settings key of the library entry made from a file with this content (SHA-256, hex). */
const OPENED_KEY = (kind: 'pipeline' | 'trace', sha: string) => `cli.opened.${kind}.${sha}`;

async function sha256(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * `hookwire ui pipeline.json trace…` opens the app at `/#open=<token>`: the app fetches the files with the
 * token, adds the pipeline to the library (checked by the engine like any import), imports the traces like
 * dropped files and lands in the debugger. The fragment is removed first, so a reload imports nothing twice.
 *
 * Opening the same files again (the printed address a second time, or another `hookwire ui` on them) finds
 * what the first opening made: each entry is remembered by the SHA-256 of the file's bytes, and while that
 * entry is still in the library it is opened as it is now (with any edit made since), not imported again.
 * A pipeline the engine refuses is not added: its problems go to the Problems panel (refusedFile.ts).
 */
export async function openFromCli({ store, workspace, traces, replay, db }: Pick<AppServices, 'store' | 'workspace' | 'traces' | 'replay' | 'db'>): Promise<void> {
  const m = /^#open=([0-9a-f]{16,128})$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, '', location.pathname + location.search);
  const headers = { Authorization: `Bearer ${m[1]}` };
  const toast = (message: string, tone: 'info' | 'error' = 'info') => store.getState().toast({ tone, message });
  const get = async (url: string) => {
    const res = await fetch(url, { headers, cache: 'no-store' });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${(await res.text()).trim()}`);
    return res;
  };
  const again: string[] = [];
  try {
    const manifest = (await (await get('/api/open')).json()) as OpenManifest;
    if (manifest.pipeline) {
      const bytes = await (await get(manifest.pipeline.url)).arrayBuffer();
      const key = OPENED_KEY('pipeline', await sha256(bytes));
      const earlier = await getSetting<string>(db, key);
      if (earlier && (await readPipeline(db, earlier))) {
        await workspace.openPipeline(earlier);
        again.push(manifest.pipeline.name);
      } else {
        const check = checkImport(new TextDecoder().decode(bytes));
        if (check.ok && check.doc) {
          useRefusedFile.getState().set(null);
          const id = await workspace.newPipeline(check.doc);
          if (id) await setSetting(db, key, id);
        } else {
          const errors = check.problems.filter((p) => p.severity === 'error').length;
          useRefusedFile.getState().set({ name: manifest.pipeline.name, problems: check.problems });
          store.getState().setMode('edit');
          toast(`${manifest.pipeline.name} cannot be opened: ${errors} problem${errors === 1 ? '' : 's'}, listed in the Problems panel. Nothing was added.`, 'error');
        }
      }
    }
    if (manifest.traces.length) {
      store.getState().setMode('debug');
      for (const t of manifest.traces) {
        const blob = await (await get(t.url)).blob();
        const key = OPENED_KEY('trace', await sha256(await blob.arrayBuffer()));
        const earlier = await getSetting<string>(db, key);
        if (earlier && (await readTraceRecord(db, earlier))) {
          await replay.openTrace(earlier);
          again.push(t.name);
          continue;
        }
        const id = await traces.importFile(new File([blob], t.name));
        if (id) await setSetting(db, key, id);
      }
    }
    if (again.length) toast(`Already in your library: ${again.join(', ')}. Opened ${again.length === 1 ? 'it' : 'them'} as ${again.length === 1 ? 'it is' : 'they are'}, with any changes made since.`);
  } catch (e) {
    toast(`Could not open the files from \`hookwire ui\`: ${e instanceof Error ? e.message : String(e)}`, 'error');
  }
}
