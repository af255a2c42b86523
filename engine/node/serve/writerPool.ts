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

  /**
   * Appends `text` (`bytes` long in UTF-8) to `file` whole, then writes its anchor [K6]; throws or rejects with what
   * the file system throws (the caller fails closed). Null when it is done already: an open file under the `write`
   * policy is written synchronously, so an event's turn need not wait a promise for it.
   */
  append(file: string, text: string, bytes: number, anchor?: Anchor): Promise<void> | null {
    const e = this.open.get(file);
    if (!e) return this.openAndAppend(file, text, bytes, anchor);
    this.open.delete(file);
    this.open.set(file, e);
    return this.write(e, text, bytes, anchor);
  }

  private async openAndAppend(file: string, text: string, bytes: number, anchor?: Anchor): Promise<void> {
    await this.makeRoom();
    const e: Entry = { writer: await openRecordingWriter(file, this.policy), busy: false };
    this.open.set(file, e);
    await this.write(e, text, bytes, anchor);
  }

  private write(e: Entry, text: string, bytes: number, anchor?: Anchor): Promise<void> | null {
    // Busy while a write waits (a sync): makeRoom must not close it under the waiting write.
    const pending = e.writer.append(text, bytes, anchor);
    if (pending === null) return null;
    e.busy = true;
    return pending.finally(() => {
      e.busy = false;
    });
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
