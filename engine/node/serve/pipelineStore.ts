// The pipelines a server has served, by version. A version is named by the SHA-256 of the file's text and
// kept in the state dir, so a recording made under an older pipeline is rebuilt with exactly that pipeline.
// Hot reload: when the file changes it is validated; a good file becomes current in one assignment (sessions
// read `current` when an event's turn comes, so a switch always falls between two events); a bad file keeps
// the old pipeline and the problems are kept for /health and written to the log.
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError, readTextFile } from '../cliIo.ts';
import { compilePipelineText, type LoadedPipeline } from '../loadPipelineFile.ts';
import { PIPELINE_VERSION_RE, pipelineVersionOf } from '../../trace/pipelineVersion.ts';

export interface PipelineVersion {
  /** `sha256:<16 hex>` of the file's text: what each recorded event names [R17]. */
  version: string;
  name: string;
  text: string;
  loaded: LoadedPipeline;
  loadedAt: string;
}

export interface ReloadProblem {
  at: string;
  message: string;
}

export class PipelineStore {
  current!: PipelineVersion;
  /** The last reload that failed, until a good file loads. */
  reloadError: ReloadProblem | null = null;
  reloads = 0;
  private readonly versions = new Map<string, PipelineVersion>();
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private reloading: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly dir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Loads the file; throws a CliError when it is refused (the server does not start without a pipeline). */
  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.current = await this.add(await readTextFile(this.path, 'pipeline'));
  }

  /** A version by name: loaded, or read back from the state dir. Throws when the state dir does not have it. */
  async get(version: string): Promise<PipelineVersion> {
    const known = this.versions.get(version);
    if (known) return known;
    if (!PIPELINE_VERSION_RE.test(version)) throw new CliError(`"${version.slice(0, 80)}" is not a pipeline version`);
    let text: string;
    try {
      text = await readFile(this.fileOf(version), 'utf8');
    } catch {
      throw new CliError(`pipeline version ${version} is not in the state dir (${this.dir})`);
    }
    return this.add(text);
  }

  /** Validates text and makes it current (PUT /v1/pipeline writes the file first, then calls this). */
  async reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.reloadOnce());
    return this.reloading;
  }

  /** Replaces the pipeline file atomically (write a temp file, rename) and reloads it. Throws when refused. */
  async replaceFile(text: string): Promise<PipelineVersion> {
    await compilePipelineText(text, this.path).then((l) => l.dispose());
    const tmp = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    await writeFile(tmp, text);
    await rename(tmp, this.path);
    await this.reload();
    if (this.current.text !== text) throw new CliError(this.reloadError?.message ?? 'the pipeline changed again while it was replaced');
    return this.current;
  }

  /** Watches the file's directory (editors save by renaming a new file over the old one). */
  watch(): void {
    const name = basename(this.path);
    this.watcher = watch(dirname(this.path), (_kind, file) => {
      if (file !== null && file !== name) return;
      if (this.timer) clearTimeout(this.timer);
      // Editors write in several steps; wait until the file has been quiet for a moment.
      this.timer = setTimeout(() => void this.reload(), 40);
    });
    // A watch that breaks (the directory removed, too many watchers) must not take the server down: it keeps
    // serving the current pipeline, and /health says reloads stopped.
    this.watcher.on('error', (err) => this.fail(new Error(`the pipeline file is no longer watched: ${err.message}`)));
  }

  close(): void {
    this.watcher?.close();
    if (this.timer) clearTimeout(this.timer);
    for (const v of this.versions.values()) v.loaded.dispose();
  }

  private async reloadOnce(): Promise<void> {
    let text: string;
    try {
      text = await readTextFile(this.path, 'pipeline');
    } catch (err) {
      this.fail(err);
      return;
    }
    if (pipelineVersionOf(text) === this.current.version) {
      this.reloadError = null;
      return;
    }
    try {
      const next = await this.add(text);
      this.current = next;
      this.reloadError = null;
      this.reloads++;
      this.log(`hookwire serve: pipeline reloaded: ${next.name} ${next.version}`);
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.reloadError = { at: new Date().toISOString(), message };
    this.log(`hookwire serve: the changed pipeline file is refused; still serving ${this.current.version}:\n${message}`);
  }

  private async add(text: string): Promise<PipelineVersion> {
    const version = pipelineVersionOf(text);
    const known = this.versions.get(version);
    if (known) return known;
    const loaded = await compilePipelineText(text, this.path);
    const file = this.fileOf(version);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, text);
    await rename(tmp, file);
    const v: PipelineVersion = { version, name: loaded.pipeline.name, text, loaded, loadedAt: new Date().toISOString() };
    this.versions.set(version, v);
    return v;
  }

  private fileOf(version: string): string {
    return join(this.dir, `${version.replace(':', '-')}.json`);
  }
}
