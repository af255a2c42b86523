import type { OpenManifest } from '../../engine/app.ts';
import { checkImport } from '../model/exportPipeline.ts';
import type { AppServices } from '../startApp.ts';

/**
 * `hookwire ui pipeline.json trace…` opens the app at `/#open=<token>`: the app fetches the files with the
 * token, adds the pipeline to the library (checked by the engine like any import), imports the traces like
 * dropped files and lands in the debugger. The fragment is removed first, so a reload imports nothing twice.
 */
export async function openFromCli({ store, workspace, traces }: Pick<AppServices, 'store' | 'workspace' | 'traces'>): Promise<void> {
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
  try {
    const manifest = (await (await get('/api/open')).json()) as OpenManifest;
    if (manifest.pipeline) {
      const text = await (await get(manifest.pipeline.url)).text();
      const check = checkImport(text);
      if (check.ok && check.doc) await workspace.newPipeline(check.doc);
      else {
        const errors = check.problems.filter((p) => p.severity === 'error').length;
        toast(`${manifest.pipeline.name} cannot be opened: ${errors} problem${errors === 1 ? '' : 's'} (\`hookwire validate ${manifest.pipeline.name}\` lists them).`, 'error');
      }
    }
    if (manifest.traces.length) {
      const files: File[] = await Promise.all(manifest.traces.map(async (t) => new File([await (await get(t.url)).blob()], t.name)));
      store.getState().setMode('debug');
      traces.importFiles(files);
    }
  } catch (e) {
    toast(`Could not open the files from \`hookwire ui\`: ${e instanceof Error ? e.message : String(e)}`, 'error');
  }
}
