// Open recording files, at most `max` at once: a server with thousands of live sessions must not hold a file
// descriptor for each (a common soft limit is 1024, and running out would look like a disk fault). The least
// recently written file that is not being written is closed; its session reopens it (O_APPEND) on its next line.
import { openRecordingWriter, type FlushPolicy, type RecordingWriter } from './recordingFile.ts';
import type { Anchor } from './recordingAnchor.ts';

/** Open recordings kept by default. */
export const DEFAULT_OPEN_FILES = 256;

interface Entry {
  writer: RecordingWriter;
  busy: boolean;
}

export class WriterPool {
  /** By file, in least-recently-used order (a Map keeps insertion order; a use re-inserts). */
  private readonly open = new Map<string, Entry>();

  constructor(
    private readonly policy: FlushPolicy,
    private readonly max = DEFAULT_OPEN_FILES,
  ) {}

  /** Appends `text` to `file` whole, then writes its anchor [K6]; throws what the file system throws (the caller fails closed). */
  async append(file: string, text: string, anchor?: Anchor): Promise<void> {
    let e = this.open.get(file);
    if (e) this.open.delete(file);
    else {
      await this.makeRoom();
      e = { writer: await openRecordingWriter(file, this.policy), busy: false };
    }
    this.open.set(file, e);
    e.busy = true;
    try {
      await e.writer.append(text, anchor);
    } finally {
      e.busy = false;
    }
  }

  /** Closes the file (a session dropped from memory, or one whose last write failed and will be repaired). */
  async close(file: string): Promise<void> {
    const e = this.open.get(file);
    if (!e) return;
    this.open.delete(file);
    await e.writer.close().catch(() => undefined);
  }

  get size(): number {
    return this.open.size;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((f) => this.close(f)));
  }

  private async makeRoom(): Promise<void> {
    if (this.open.size < this.max) return;
    for (const [file, e] of this.open) {
      if (e.busy) continue;
      await this.close(file);
      return;
    }
  }
}
