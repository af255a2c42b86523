// Records an importer must keep to the end of its document (SWE-agent pairs the trajectory with a history written
// after it, and learns its model only from the last member), read back by index. In memory they are the parsed
// values; in a RecordStore (a temporary file in the CLI, engine/node/spillFile.ts) they are JSON text, so memory
// holds one handle a record, whatever the records weigh [I1].
import type { JsonValue } from '../../model/json.ts';
import type { RecordStore } from '../../model/idIndex.ts';

/** A list of JSON values appended in order and read back by index. */
export interface HeldValues {
  push(value: JsonValue): void;
  /** The value at `i` (a copy through JSON when stored: a `-0` comes back as `0`), undefined past the end. */
  get(i: number): JsonValue | undefined;
  /** The values from `from` up to `to` (excluded), as `Array.prototype.slice` takes them. */
  slice(from: number, to: number): JsonValue[];
  readonly length: number;
}

/**
 * Held in a store when one is given, else in memory.
 *
 * @example const h = heldValues(memoryRecordStore()); h.push({ a: 1 }); h.get(0) // → { a: 1 }
 */
export function heldValues(store?: RecordStore): HeldValues {
  if (!store) {
    const values: JsonValue[] = [];
    return {
      push: (v) => void values.push(v),
      get: (i) => values[i],
      slice: (from, to) => values.slice(from, to),
      get length() {
        return values.length;
      },
    };
  }
  const handles: number[] = [];
  const read = (h: number): JsonValue => JSON.parse(store.read(h)) as JsonValue;
  const get = (i: number): JsonValue | undefined => {
    const h = handles[i];
    return h === undefined ? undefined : read(h);
  };
  return {
    push: (v) => void handles.push(store.append(JSON.stringify(v))),
    get,
    slice: (from, to) => handles.slice(from, to).map(read),
    get length() {
      return handles.length;
    },
  };
}
