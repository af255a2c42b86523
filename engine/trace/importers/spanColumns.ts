// What a span import keeps of every span to the end of its file [I1][I5], in columns: the span itself is held
// elsewhere (heldValues: a temporary file in the CLI) and read back when its events are made. An object a span
// (its id, its parent's, its operation name as strings, and the ordering's per-span objects) weighed ~340 bytes;
// here a span is ~70 bytes of typed arrays plus its id's one entry in the interning Map (an id is written once
// for the span and once for each child, and kept once).
import type { OrderedSpans } from './spanOrder.ts';

/** One span as added: its ids in hex (null when it has none), times, operation name and Hookwire's flag and seq. */
export interface SpanFacts {
  hex: string | null;
  parent: string | null;
  start: number;
  end: number;
  op: string;
  hookwire: boolean;
  seq: number;
}

const START_CAPACITY = 256;

/** Strings numbered in the order first seen. */
class Interned {
  private readonly codes = new Map<string, number>();
  readonly text: string[] = [];

  code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.text.length;
      this.codes.set(s, c);
      this.text.push(s);
    }
    return c;
  }
}

/**
 * The spans of one import, by their place in the file: what their order and their events need of them.
 *
 * @example const c = new SpanColumns(); c.add({ hex: 'a1', parent: null, start: 1, end: 2, op: 'chat', hookwire: false, seq: Infinity }); c.hex(0) // → 'a1'
 */
export class SpanColumns implements OrderedSpans {
  count = 0;
  private capacity = START_CAPACITY;
  private starts = new Float64Array(START_CAPACITY);
  private ends = new Float64Array(START_CAPACITY);
  private seqs = new Float64Array(START_CAPACITY);
  /** Interned ids: the span's own (-1 when it has none) and its parent's (-1 when none). */
  private ids = new Int32Array(START_CAPACITY);
  private parents = new Int32Array(START_CAPACITY);
  private ops = new Int32Array(START_CAPACITY);
  private flags = new Uint8Array(START_CAPACITY);
  private readonly idCodes = new Interned();
  /** For each interned id, the first span that has it (-1 while none has). */
  private firstWithId = new Int32Array(START_CAPACITY).fill(-1);
  private readonly opCodes = new Interned();

  add(f: SpanFacts): void {
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.starts[i] = f.start;
    this.ends[i] = f.end;
    this.seqs[i] = f.seq;
    this.ids[i] = f.hex === null ? -1 : this.idCode(f.hex);
    if (f.hex !== null && this.firstWithId[this.ids[i]!] === -1) this.firstWithId[this.ids[i]!] = i;
    this.parents[i] = f.parent === null ? -1 : this.idCode(f.parent);
    this.ops[i] = this.opCodes.code(f.op);
    this.flags[i] = f.hookwire ? 1 : 0;
  }

  start(i: number): number {
    return this.starts[i]!;
  }

  end(i: number): number {
    return this.ends[i]!;
  }

  seq(i: number): number {
    return this.seqs[i]!;
  }

  op(i: number): string {
    return this.opCodes.text[this.ops[i]!]!;
  }

  hookwire(i: number): boolean {
    return this.flags[i] === 1;
  }

  /** The span's id in hex, or `span<i>` when it has none (never a hex id: no parent can name it). */
  hex(i: number): string {
    const c = this.ids[i]!;
    return c === -1 ? `span${i}` : this.idCodes.text[c]!;
  }

  parentOf(i: number): number {
    const c = this.parents[i]!;
    return c === -1 ? -1 : this.firstWithId[c]!;
  }

  /** The parent id is given and some span has it. */
  hasKnownParent(i: number): boolean {
    return this.parentOf(i) !== -1;
  }

  private idCode(hex: string): number {
    const c = this.idCodes.code(hex);
    if (c === this.firstWithId.length) {
      const wider = new Int32Array(2 * c).fill(-1);
      wider.set(this.firstWithId);
      this.firstWithId = wider;
    }
    return c;
  }

  private grow(): void {
    this.capacity *= 2;
    const wider = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(this.capacity);
      b.set(a);
      return b;
    };
    this.starts = wider(this.starts);
    this.ends = wider(this.ends);
    this.seqs = wider(this.seqs);
    this.ids = wider(this.ids);
    this.parents = wider(this.parents);
    this.ops = wider(this.ops);
    this.flags = wider(this.flags);
  }
}
