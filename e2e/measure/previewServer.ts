// The built app served on a port of its own for a measurement script: `vite build` into a folder of its own,
// `vite preview`, wait until it answers; `stop()` ends the server and removes the build.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export interface PreviewServer {
  base: string;
  stop(): void;
}

/** `buildArgs` go to `vite build` as they are (e.g. `--minify false`, so a CPU profile names functions). */
export async function startPreview(root: string, port: number, outDir: string, buildArgs: string[] = []): Promise<PreviewServer> {
  console.log(`building into ${outDir}/ …`);
  const build = spawnSync('npx', ['vite', 'build', '--outDir', outDir, ...buildArgs], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(build.stderr || build.stdout);
  const base = `http://127.0.0.1:${port}`;
  const server = spawn('npx', ['vite', 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: root, stdio: 'ignore', detached: true });
  const stop = () => {
    process.kill(-server.pid!, 'SIGTERM');
    rmSync(join(root, outDir), { recursive: true, force: true });
  };
  try {
    await waitFor(base);
  } catch (e) {
    stop();
    throw e;
  }
  return { base, stop };
}

async function waitFor(base: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(base)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`preview server did not start on ${base}`);
}
