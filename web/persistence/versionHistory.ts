import Dexie from 'dexie';
import { summarizeVersionChange } from '../model/versionSummary.ts';
import type { HookwireDb } from './db.ts';

/**
 * Automatic version history of each pipeline: every save that changes the document records a version, in
 * the same IndexedDB transaction as the save, so a stored pipeline and its history never disagree. To stay
 * bounded, saves within COALESCE_MS of a version's first save fold into it (typing a name is one version,
 * not forty), and only the newest KEEP unnamed versions of a pipeline are kept; a version the user named is
 * kept until they unname it. Plain JSON rows (STYLE habit 7).
 */
export interface PipelineVersion {
  /** Order of recording (auto-incremented). */
  seq?: number;
  pipeline_id: string;
  /** The document as saved (possibly with problems the user was fixing). */
  doc: unknown;
  name: string;
  /** The first and the last save folded into this version. */
  first_at: number;
  at: number;
  /** The stored revision this version is. */
  revision: number;
  /** What changed since the version before it. */
  summary: string;
  /** A name the user gave it: such a version is never folded into nor dropped. */
  label?: string;
  /**
   * When this document was last exported (downloaded or copied as a pipeline file): what runs in production,
   * so a backtest can compare the current edit with it. Never folded into; the newest one is never dropped.
   */
  exported_at?: number;
}

/** Saves closer together than this (from a version's first save) are one version. */
export const COALESCE_MS = 60_000;
/** Unnamed versions kept per pipeline. */
export const KEEP = 50;

const range = (id: string) => [[id, Dexie.minKey], [id, Dexie.maxKey]] as const;

/** Versions of one pipeline, newest first. */
export async function listVersions(db: HookwireDb, pipelineId: string): Promise<PipelineVersion[]> {
  const [lo, hi] = range(pipelineId);
  return db.versions.where('[pipeline_id+seq]').between(lo, hi, true, true).reverse().toArray();
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** How a save is recorded: `fold: false` starts a version even within the fold window (a restore does). */
export interface RecordOptions {
  fold?: boolean;
  /** Said before what changed, in a version this save starts ("Restored 14:03:12"). */
  note?: string;
}

/**
 * Records `doc` as the newest version of a pipeline (call it inside the save's transaction, which must
 * include `db.versions`). A document equal to the newest version records nothing. A restore is recorded with
 * `fold: false`: folded into the newest version it would overwrite (or, back to the one before, delete) the
 * version the user is leaving, and that version is what they may want back.
 */
export async function recordVersion(db: HookwireDb, pipelineId: string, doc: unknown, revision: number, now: number, options: RecordOptions = {}): Promise<void> {
  const [lo, hi] = range(pipelineId);
  const [latest, before] = await db.versions.where('[pipeline_id+seq]').between(lo, hi, true, true).reverse().limit(2).toArray();
  if (latest && same(latest.doc, doc)) {
    await db.versions.update(latest.seq!, { revision });
    return;
  }
  const name = typeof (doc as { name?: unknown })?.name === 'string' ? (doc as { name: string }).name : '';
  // The first version (as created, or as found when history began) is never folded into: it stays to go back to.
  if (options.fold !== false && latest && before && latest.label === undefined && latest.exported_at === undefined && now - latest.first_at < COALESCE_MS && now >= latest.first_at) {
    // Back to the version before (an undo right after an edit): the folded version goes away.
    if (same(before.doc, doc)) {
      await db.versions.delete(latest.seq!);
      await db.versions.update(before.seq!, { revision });
      return;
    }
    await db.versions.update(latest.seq!, { doc, name, at: now, revision, summary: summarizeVersionChange(before.doc, doc) });
    return;
  }
  const summary = summarizeVersionChange(latest ? latest.doc : null, doc);
  await db.versions.add({ pipeline_id: pipelineId, doc, name, first_at: now, at: now, revision, summary: options.note ? `${options.note} · ${summary}` : summary });
  await prune(db, pipelineId);
}

async function prune(db: HookwireDb, pipelineId: string): Promise<void> {
  const all = await listVersions(db, pipelineId);
  const exported = lastExported(all);
  const unnamed = all.filter((v) => v.label === undefined && v !== exported);
  const drop = unnamed.slice(KEEP).map((v) => v.seq!);
  if (drop.length) await db.versions.bulkDelete(drop);
}

/** The version exported last (of a list from listVersions), if any. */
export function lastExported(versions: readonly PipelineVersion[]): PipelineVersion | undefined {
  let out: PipelineVersion | undefined;
  for (const v of versions) if (v.exported_at !== undefined && (!out || v.exported_at > out.exported_at!)) out = v;
  return out;
}

/**
 * Records that `doc` was exported now: the newest version when it is this document, else a new version of it
 * (an export of an edit not saved yet), marked `exported_at` in either case.
 */
export async function markExported(db: HookwireDb, pipelineId: string, doc: unknown, now: number): Promise<void> {
  await db.transaction('rw', db.versions, db.pipelines, async () => {
    const [lo, hi] = range(pipelineId);
    const [latest] = await db.versions.where('[pipeline_id+seq]').between(lo, hi, true, true).reverse().limit(1).toArray();
    if (latest && same(latest.doc, doc)) {
      await db.versions.update(latest.seq!, { exported_at: now });
      return;
    }
    const stored = await db.pipelines.get(pipelineId);
    const name = typeof (doc as { name?: unknown })?.name === 'string' ? (doc as { name: string }).name : '';
    await db.versions.add({
      pipeline_id: pipelineId, doc, name, first_at: now, at: now, revision: stored?.revision ?? 0, exported_at: now,
      summary: `Exported · ${summarizeVersionChange(latest ? latest.doc : null, doc)}`,
    });
    await prune(db, pipelineId);
  });
}

/** Names a version (kept for good) or, with an empty name, unnames it (it may then be dropped as it ages). */
export async function nameVersion(db: HookwireDb, seq: number, label: string): Promise<void> {
  const trimmed = label.trim();
  await db.transaction('rw', db.versions, async () => {
    const v = await db.versions.get(seq);
    if (!v) return;
    if (trimmed) await db.versions.put({ ...v, label: trimmed });
    else {
      const { label: _old, ...rest } = v;
      await db.versions.put(rest);
      await prune(db, v.pipeline_id);
    }
  });
}

/** Removes the history of pipelines that are gone for good. */
export async function deleteVersionsOf(db: HookwireDb, pipelineIds: readonly string[]): Promise<void> {
  for (const id of pipelineIds) {
    const [lo, hi] = range(id);
    await db.versions.where('[pipeline_id+seq]').between(lo, hi, true, true).delete();
  }
}
