/**
 * A per-object memo for the dispatcher's working tables: the value made for `key` once and kept while the
 * key lives (a WeakMap), with the key asked for last checked first, since most callers ask about one
 * pipeline (and one event type) again and again. `make` gets the extra argument of the first call for a key.
 * `const scratchOf = lastMemo((compiled: CompiledPipeline) => newScratch(compiled))`.
 */
export function lastMemo<K extends object, V, A = void>(make: (key: K, arg: A) => V): (key: K, arg: A) => V {
  const made = new WeakMap<K, V>();
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
