import type { JsonValue } from './json.ts';

/** Object types compared member by member, so an interface and the object type it equals are the same. JSON values are compared as they are. */
type Flat<T> = [JsonValue] extends [T] ? T : T extends readonly unknown[] ? { [K in keyof T]: Flat<T[K]> } : T extends object ? { [K in keyof T]: Flat<T[K]> } : T;

/** `true` when A and B have exactly the same members (names, optionality and types), else `false`. */
export type Same<A, B> = (<X>() => X extends Flat<A> ? 1 : 2) extends <X>() => X extends Flat<B> ? 1 : 2 ? true : false;

/**
 * A compile-time check that a written-out type equals a schema's inferred one: `sameType<Same<A, B>>()`
 * fails to compile when they drift. The call does nothing at run time.
 */
export function sameType<_ extends true>(): void {}
