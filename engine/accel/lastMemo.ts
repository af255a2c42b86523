/**
 * A per-object memo for the dispatcher's working tables: the value made for `key` once and kept while the
 * key lives (a WeakMap), with the keys asked for last checked first, since most callers ask about one
 * pipeline (and a few event types) again and again. `make` gets the extra argument of the first call for a key.
 * `recent`: how many of the last keys are checked before the WeakMap (they are held until pushed out): 1 for
 * a memo keyed by pipeline, more for one keyed by event-type plan, whose events come in mixed types.
 * `const scratchOf = lastMemo((compiled: CompiledPipeline) => newScratch(compiled))`.
 */
export function lastMemo<K extends object, V, A = void>(make: (key: K, arg: A) => V, recent = 1): (key: K, arg: A) => V {
  const made = new WeakMap<K, V>();
  if (recent <= 1) {
    let lastKey: K | null = null;
    let lastValue: V | undefined;
    return (key, arg) => {
      if (key === lastKey) return lastValue!;
      let v = made.get(key);
      if (v === undefined) made.set(key, (v = make(key, arg)));
      lastKey = key;
      lastValue = v;
      return v;
    };
  }
  const keys: (K | null)[] = new Array<K | null>(recent).fill(null);
  const values: (V | undefined)[] = new Array<V | undefined>(recent).fill(undefined);
  let next = 0;
  return (key, arg) => {
    for (let i = 0; i < recent; i++) if (keys[i] === key) return values[i]!;
    let v = made.get(key);
    if (v === undefined) made.set(key, (v = make(key, arg)));
    keys[next] = key;
    values[next] = v;
    next = (next + 1) % recent;
    return v;
  };
}
