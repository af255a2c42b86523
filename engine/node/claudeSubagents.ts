// Claude Code's subagent transcripts: since 2.1.233 a subagent's records are not in its session's transcript but in
// files of their own beside it, `<project>/<session id>/subagents/agent-<agent id>.jsonl` (each line with the parent's
// sessionId, isSidechain: true and its agentId; agent-<id>.meta.json beside it). Not documented by Anthropic; read
// from public readers of these files that agree: agent-top-core src/harness/claude.rs (verified on 2.1.259,
// 2026-09-03), blavka/agents-tree providers/claude.py, jlreyes/agent-history-skills exploring-claude-sessions.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The subagent transcripts kept beside a Claude Code session transcript, in name order; none when there is no such folder. */
export function claudeSubagentFiles(transcript: string): string[] {
  const m = /^(.+)\.jsonl$/.exec(basename(transcript));
  if (!m) return [];
  const dir = join(dirname(transcript), m[1] as string, 'subagents');
  try {
    return readdirSync(dir).filter((n) => /^agent-.+\.jsonl$/.test(n)).sort().map((n) => join(dir, n));
  } catch {
    return []; // no subagent folder: a session without subagents, or an older version that kept them inline
  }
}
