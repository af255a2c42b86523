// The same conditions through libraries a user might reach for instead: sift (Mongo-style queries) and
// @marcbachmann/cel-js (Common Expression Language). Both run inside the seed port's registry.
import siftModule from 'sift';
import { parse } from '@marcbachmann/cel-js';
import type { JsonObject, JsonValue } from '../../../engine/index.ts';

const sift = (siftModule as unknown as { default?: typeof siftModule }).default ?? siftModule;

function toMongo(cond: JsonObject): JsonObject {
  const out = Object.entries(cond).map(([key, operand]): JsonObject => {
    if (key === 'any') return { $or: (operand as JsonObject[]).map(toMongo) };
    if (key === 'all') return { $and: (operand as JsonObject[]).map(toMongo) };
    if (typeof operand !== 'object' || operand === null) return { [key]: { $eq: operand } } as JsonObject;
    // Every operator on the path (`{ gte: 10, lt: 20 }`: both hold).
    const ops: JsonObject = {};
    for (const [op, v] of Object.entries(operand)) ops[op === 'regex' ? '$regex' : `$${op}`] = v as JsonValue;
    return { [key]: ops } as JsonObject;
  });
  return out.length === 1 ? out[0]! : { $and: out };
}

export function compileSift(cond: JsonObject) {
  const test = sift(toMongo(cond) as never) as (x: unknown) => boolean;
  return (ctx: { payload: JsonObject }) => test(ctx);
}

function toCel(cond: JsonObject): string {
  const parts = Object.entries(cond).map(([key, operand]) => {
    if (key === 'any') return `(${(operand as JsonObject[]).map(toCel).join(' || ')})`;
    if (key === 'all') return `(${(operand as JsonObject[]).map(toCel).join(' && ')})`;
    if (typeof operand !== 'object' || operand === null) return `${key} == ${JSON.stringify(operand)}`;
    const lit = (x: JsonValue) => (typeof x === 'number' && Number.isInteger(x) ? `${x}.0` : JSON.stringify(x));
    // Every operator on the path (`{ gte: 10, lt: 20 }`: both hold).
    const each = Object.entries(operand).map(([op, v]) => {
      switch (op) {
        case 'in': return `${key} in ${JSON.stringify(v)}`;
        case 'regex': return `${key}.matches(${JSON.stringify(v)})`;
        case 'gt': return `double(${key}) > ${lit(v as JsonValue)}`;
        case 'gte': return `double(${key}) >= ${lit(v as JsonValue)}`;
        case 'lt': return `double(${key}) < ${lit(v as JsonValue)}`;
        case 'lte': return `double(${key}) <= ${lit(v as JsonValue)}`;
        default: throw new Error(`cel: no ${op}`);
      }
    });
    return each.length === 1 ? each[0]! : `(${each.join(' && ')})`;
  });
  return parts.join(' && ');
}

export function compileCel(cond: JsonObject) {
  const program = parse(toCel(cond));
  return (ctx: { payload: JsonObject }) => program(ctx) === true;
}
