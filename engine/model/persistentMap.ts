// An immutable map from strings with structural sharing (a hash array mapped trie, after Bagwell's "Ideal Hash
// Trees", 2001): `set` and `delete` copy only the path to one entry (about log32 n small arrays), never the
// whole map. Flow memory [F3][F8] lives in the dispatch state and is replaced after every event it remembers;
// copying a Map of every session (or of a rule's 256 keys) per event was what made flow rules cost micro-
// seconds per event. Keys are user data (trace ids, payload values): compared as strings, never object keys [V8].
// The shape depends only on the set of keys, not on the order they came in, so equal maps are deep-equal.

const BITS = 5;
const MASK = 31;

class Leaf<V> {
  /** Keys with the same 32-bit hash (almost always one), and their values in the same order. */
  constructor(readonly hash: number, readonly keys: readonly string[], readonly values: readonly V[]) {}
}

class Branch<V> {
  /** Bit i set: the slot for hash chunk i is present, at index popcount(bitmap below i) of `kids`. */
  constructor(readonly bitmap: number, readonly kids: readonly Node<V>[]) {}
}

type Node<V> = Leaf<V> | Branch<V>;

function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function replaced<T>(xs: readonly T[], i: number, x: T): T[] {
  const out = xs.slice();
  out[i] = x;
  return out;
}

function removed<T>(xs: readonly T[], i: number): T[] {
  const out = xs.slice();
  out.splice(i, 1);
  return out;
}

/** Two leaves of different hashes under one branch from `shift` on (a chain while their chunks agree). */
function join<V>(a: Leaf<V>, b: Leaf<V>, shift: number): Branch<V> {
  const ia = (a.hash >>> shift) & MASK;
  const ib = (b.hash >>> shift) & MASK;
  if (ia === ib) return new Branch(1 << ia, [join(a, b, shift + BITS)]);
  return new Branch((1 << ia) | (1 << ib), ia < ib ? [a, b] : [b, a]);
}

/** Set by `setIn` when it added a key (rather than replaced one): read right after the call, so no object per call. */
let grew = 0;

function setIn<V>(node: Node<V> | null, hash: number, key: string, value: V, shift: number): Node<V> {
  if (node === null) {
    grew = 1;
    return new Leaf(hash, [key], [value]);
  }
  if (node instanceof Leaf) {
    if (node.hash !== hash) {
      grew = 1;
      return join(node, new Leaf(hash, [key], [value]), shift);
    }
    const i = node.keys.indexOf(key);
    if (i >= 0) return node.values[i] === value ? node : new Leaf(hash, node.keys, replaced(node.values, i, value));
    grew = 1;
    return new Leaf(hash, [...node.keys, key], [...node.values, value]);
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  const at = popcount(node.bitmap & (bit - 1));
  if ((node.bitmap & bit) === 0) {
    grew = 1;
    const kids = node.kids.slice();
    kids.splice(at, 0, new Leaf(hash, [key], [value]));
    return new Branch(node.bitmap | bit, kids);
  }
  const kid = node.kids[at]!;
  const next = setIn(kid, hash, key, value, shift + BITS);
  return next === kid ? node : new Branch(node.bitmap, replaced(node.kids, at, next));
}

function deleteIn<V>(node: Node<V>, hash: number, key: string, shift: number): Node<V> | null {
  if (node instanceof Leaf) {
    const i = node.hash === hash ? node.keys.indexOf(key) : -1;
    if (i < 0) return node;
    return node.keys.length === 1 ? null : new Leaf(hash, removed(node.keys, i), removed(node.values, i));
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  if ((node.bitmap & bit) === 0) return node;
  const at = popcount(node.bitmap & (bit - 1));
  const kid = node.kids[at]!;
  const next = deleteIn(kid, hash, key, shift + BITS);
  if (next === kid) return node;
  if (next === null) {
    if (node.kids.length === 1) return null;
    const kids = removed(node.kids, at);
    // A branch left with one leaf is that leaf: the shape stays a function of the keys alone.
    return kids.length === 1 && kids[0] instanceof Leaf ? kids[0] : new Branch(node.bitmap & ~bit, kids);
  }
  return node.kids.length === 1 && next instanceof Leaf ? next : new Branch(node.bitmap, replaced(node.kids, at, next));
}

function* walk<V>(node: Node<V> | null): Generator<[string, V]> {
  if (node === null) return;
  if (node instanceof Leaf) {
    for (let i = 0; i < node.keys.length; i++) yield [node.keys[i]!, node.values[i]!];
    return;
  }
  for (const kid of node.kids) yield* walk(kid);
}

/** An immutable string-keyed map whose `set`/`delete` return a new map sharing all but one path with this one. */
export class PersistentMap<V> implements Iterable<[string, V]> {
  private constructor(private readonly root: Node<V> | null, readonly size: number) {}

  /** The empty map. */
  static empty<V>(): PersistentMap<V> {
    return PersistentMap.EMPTY as PersistentMap<V>;
  }

  private static readonly EMPTY: PersistentMap<unknown> = new PersistentMap<unknown>(null, 0);

  /** The value at `key`, or undefined. */
  get(key: string): V | undefined {
    let node = this.root;
    if (node === null) return undefined;
    const hash = hashOf(key);
    for (let shift = 0; ; shift += BITS) {
      if (node instanceof Leaf) {
        if (node.hash !== hash) return undefined;
        const i = node.keys.indexOf(key);
        return i < 0 ? undefined : node.values[i];
      }
      const bit = 1 << ((hash >>> shift) & MASK);
      if ((node!.bitmap & bit) === 0) return undefined;
      node = node!.kids[popcount(node!.bitmap & (bit - 1))]!;
    }
  }

  /** Whether `key` is present. */
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** This map with `key` set to `value` (this map itself when it already holds that very value). */
  set(key: string, value: V): PersistentMap<V> {
    grew = 0;
    const root = setIn(this.root, hashOf(key), key, value, 0);
    return root === this.root ? this : new PersistentMap(root, this.size + grew);
  }

  /** This map without `key` (this map itself when it has no such key). */
  delete(key: string): PersistentMap<V> {
    if (this.root === null) return this;
    const root = deleteIn(this.root, hashOf(key), key, 0);
    return root === this.root ? this : root === null ? PersistentMap.empty() : new PersistentMap(root, this.size - 1);
  }

  /** Entries in hash order (stable for a given set of keys). */
  entries(): IterableIterator<[string, V]> {
    return walk(this.root);
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return walk(this.root);
  }

  /** A persistent map of the given entries. */
  static of<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    let m = PersistentMap.empty<V>();
    for (const [k, v] of entries) m = m.set(k, v);
    return m;
  }
}
