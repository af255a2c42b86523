import { isJsonObject, ownSet, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { ImportResult } from './importReport.ts';

/**
 * An importer of a document that is one JSON object whose records are an array under a key
 * (`{"info": {…}, "messages": [...]}`), fed one member or element at a time: by KeyedFeeder from the
 * document as it streams [I1], or from the whole parsed document (`importKeyed`), in the same order either way.
 *
 * It reads, before and while its elements come, only the members it names in `needs`; the elements wait
 * for those (or for the document's end, when one is missing), so what comes out does not depend on where in
 * the object the agent wrote them. Every other member is read in `finish`.
 */
export interface KeyedImporter {
  /** The keys whose arrays hold the records, streamed element by element. */
  readonly arrays: ReadonlySet<string>;
  /** The members read before the first element (the session's id, the model): the elements wait for them. */
  readonly needs: readonly string[];
  /** Once, before the first element (or at the end when there is none): the members and the arrays (their element counts so far) read by then. */
  begin(shell: JsonObject, arrays: ReadonlyMap<string, number>): void;
  /** One element of the array under `key`; `index` is 1-based within that array. */
  element(key: string, value: unknown, index: number): void;
  /** The end: `shell` holds every member but the streamed arrays; `arrays` the element count of each array read. */
  finish(shell: JsonObject, arrays: ReadonlyMap<string, number>): ImportResult;
}

/**
 * Feeds a KeyedImporter in document order and holds elements while a member the importer needs has not come
 * yet. Held elements are counted by the characters of their text; past `maxHeldChars`, `element` answers false
 * (the caller stops reading and says the file is too large) and what was held is dropped.
 *
 * @example const f = new KeyedFeeder(imp, 1e6); f.member('info', {}); f.array('messages'); f.element('messages', m, 10); f.finish();
 */
export class KeyedFeeder {
  private readonly shell: JsonObject = {};
  private readonly counts = new Map<string, number>();
  private readonly missing: Set<string>;
  private held: { key: string; value: unknown; index: number }[] = [];
  private heldChars = 0;
  private begun = false;

  constructor(
    private readonly imp: KeyedImporter,
    private readonly maxHeldChars: number,
  ) {
    this.missing = new Set(imp.needs);
  }

  /** The members the importer needs that have not come yet (what held elements wait for). */
  get waitingFor(): string[] {
    return [...this.missing];
  }

  member(key: string, value: unknown): void {
    ownSet(this.shell, key, value as JsonValue);
    this.missing.delete(key);
    if (this.missing.size === 0 && this.held.length > 0) this.release();
  }

  /** A streamed array starts (it may have no element). */
  array(key: string): void {
    if (!this.counts.has(key)) this.counts.set(key, 0);
  }

  /** One element; false when holding it would pass the cap (nothing more should be fed). */
  element(key: string, value: unknown, chars: number): boolean {
    const index = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, index);
    if (this.missing.size === 0 && this.held.length === 0) {
      this.start();
      this.imp.element(key, value, index);
      return true;
    }
    this.heldChars += chars;
    if (this.heldChars > this.maxHeldChars) {
      this.held = [];
      return false;
    }
    this.held.push({ key, value, index });
    return true;
  }

  finish(): ImportResult {
    this.release();
    this.start();
    return this.imp.finish(this.shell, this.counts);
  }

  private start(): void {
    if (this.begun) return;
    this.begun = true;
    this.imp.begin({ ...this.shell }, this.counts);
  }

  private release(): void {
    this.start();
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    for (const h of held) this.imp.element(h.key, h.value, h.index);
  }
}

/**
 * The whole-document path: the parsed object's members in their order, through the same feeder, so a document
 * read whole imports as the same document streamed does. Not an object: `finish` with nothing read.
 */
export function importKeyed(doc: unknown, imp: KeyedImporter): ImportResult {
  const feed = new KeyedFeeder(imp, Infinity);
  if (isJsonObject(doc)) {
    for (const [key, value] of Object.entries(doc)) {
      if (!imp.arrays.has(key) || !Array.isArray(value)) {
        feed.member(key, value);
        continue;
      }
      feed.array(key);
      for (const e of value) feed.element(key, e, 0);
    }
  }
  return feed.finish();
}
