// The structural parse of a pipeline file, remembered per exact text and per build of the CLI, so that a
// hook call (once per tool call) compiles a pipeline it has validated before without loading the schema
// library. Loading zod was about half of a `claude-hook` call's CPU (its 450 KB of code compiled at every
// start); a hit reads one small JSON file instead. Measured with test/bench/package.bench.ts.
//
// What a hit skips is exactly `parsePipeline` (structure, migration, ids, wires, patterns), and RE2's check of
// the regexes that same compile accepted (their programs are built on first use, so re2js loads only when a
// pattern needs it at all): everything else (conditions, code, lint) runs as always, in `compileParsed`. A hit needs the same text of the
// pipeline AND the same build (the entry holds both, compared whole), so a change to either validates again. The cache is the
// user's own (the same trust as the pipeline file next to it); any failure to read or write it only means
// validating as if there were none.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isJsonObject } from '../model/json.ts';
import type { ParseResult } from '../model/parsePipeline.ts';
import type { Pipeline } from '../model/pipelineTypes.ts';

/** Set by the CLI bundle (engine/node/buildCli.mjs): a hash of the sources it was built from. */
declare const __HOOKWIRE_BUILD__: string | undefined;

/** Entries kept; past this the oldest go (each is one pipeline text, a few KB). */
const MAX_ENTRIES = 64;

/** The build this process runs, or null when it runs from sources (tsx): then nothing is remembered. */
const BUILD: string | null = typeof __HOOKWIRE_BUILD__ === 'string' ? __HOOKWIRE_BUILD__ : null;

/** Where validated pipelines are kept, and for which build. */
export interface PipelineCache {
  dir: string;
  build: string;
}

/**
 * The cache of this process: in HOOKWIRE_CACHE_DIR, else $XDG_CACHE_HOME/hookwire, else ~/.cache/hookwire;
 * none when HOOKWIRE_PIPELINE_CACHE=0 or the process runs from sources.
 */
export function pipelineCache(env: NodeJS.ProcessEnv = process.env, build: string | null = BUILD): PipelineCache | null {
  if (env.HOOKWIRE_PIPELINE_CACHE === '0' || build === null) return null;
  const base = env.HOOKWIRE_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hookwire');
  return { dir: join(base, 'pipelines'), build };
}

/**
 * The entry's file for this text under this build: named by a 64-bit hash of both, not SHA-256, because
 * node:crypto cost a hook call more to load than the rest of its cache lookup (~6% of the call's CPU). The
 * name only finds the entry: the entry holds the build and the whole text, and a hit needs both equal, so a
 * collision (or a file put there under another name) is a miss, never another pipeline's document.
 */
function entryFile(text: string, cache: PipelineCache): string {
  const key = `${cache.build}\0${text}`;
  return join(cache.dir, `${hash32(key, 0x811c9dc5).toString(16).padStart(8, '0')}${hash32(key, 0x01c9dc58).toString(16).padStart(8, '0')}.json`);
}

/** FNV-1a over UTF-16 code units from `seed`, with murmur3's finaliser: two seeds make a 64-bit file name. */
function hash32(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A structurally valid document remembered for exactly `text`, or null. */
export function cachedParse(text: string, cache: PipelineCache | null): Pipeline | null {
  return cachedEntry(text, cache)?.doc ?? null;
}

/** What is remembered for exactly `text`: its document and the regexes RE2 accepted when it compiled. */
export interface CacheEntry {
  doc: Pipeline;
  /** `bits/source` of the patterns RE2 accepted in its compile (engine/match/regex.ts `noteAcceptedRegexes`). */
  regexes: string[];
}

/** The entry remembered for exactly `text`, or null. */
export function cachedEntry(text: string, cache: PipelineCache | null): CacheEntry | null {
  if (cache === null) return null;
  try {
    const entry: unknown = JSON.parse(readFileSync(entryFile(text, cache), 'utf8'));
    // A torn or foreign file, or another text or build under the same name, is no hit: validate as if it were absent.
    if (!isJsonObject(entry) || !isJsonObject(entry.doc) || entry.build !== cache.build || entry.text !== text) return null;
    const regexes = Array.isArray(entry.regexes) && entry.regexes.every((r) => typeof r === 'string') ? (entry.regexes as string[]) : [];
    return { doc: entry.doc as unknown as Pipeline, regexes };
  } catch {
    return null;
  }
}

/**
 * Remembers a structural parse that accepted `text` (a refused one is never kept), with the patterns RE2
 * accepted when that document compiled (kept only from a compile that succeeded).
 */
export function rememberParse(text: string, parsed: ParseResult, cache: PipelineCache | null, regexes: readonly string[] = []): void {
  if (cache === null || parsed.doc === null) return;
  try {
    mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
    const file = entryFile(text, cache);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ build: cache.build, text, doc: parsed.doc, regexes }), { mode: 0o600 });
    renameSync(tmp, file); // whole or absent: a reader never sees half an entry
    prune(cache.dir);
  } catch {
    // A read-only or full cache: the next call validates again.
  }
}

function prune(dir: string): void {
  const entries = readdirSync(dir).filter((n) => n.endsWith('.json'));
  if (entries.length <= MAX_ENTRIES) return;
  const aged = entries.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, entries.length - MAX_ENTRIES)) rmSync(join(dir, n), { force: true });
}
