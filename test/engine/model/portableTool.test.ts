import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../../engine/model/json.ts';
import { PORTABLE_FIELDS, portableFields, portableFieldsOf, setPortableFields, toolEntryOf, type ToolTable } from '../../../engine/model/portableTool.ts';
import {
  CLAUDE_TOOLS,
  COPILOT_TOOLS,
  CURSOR_TOOLS,
  GEMINI_TOOLS,
  GOOSE_TOOLS,
  QWEN_TOOLS,
  SESSION_TOOL_TABLES,
  sessionPortableFields,
} from '../../../engine/model/toolTables.ts';
import { AGENT_CONTRACTS } from '../../../engine/agents/registry.ts';
import { agentAdapter } from '../../../engine/runtime/agentHook.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';

/*
 * One rule for "which portable call is this agent tool" [AG2][I13]: the hook mappings and the session importers
 * read a call through the same function and the same table entries, so a pipeline matches a live call and the same
 * call in an imported session alike, and neither guesses a field the call does not say.
 */

const TS = '2026-12-06T00:00:00.000Z';
const portableOf = (payload: JsonObject): JsonObject => Object.fromEntries(PORTABLE_FIELDS.filter((k) => Object.hasOwn(payload, k)).map((k) => [k, payload[k]!]));

/** Text with the given URLs written into it, between words. */
const textWith = (urls: string[], words: string[]): string => urls.map((u, i) => `${words[i] ?? 'see'} ${u} `).join('') + (words.at(-1) ?? '');

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const urlText = fc.tuple(fc.array(fc.webUrl(), { maxLength: 3 }), fc.array(word, { maxLength: 4 })).map(([u, w]) => textWith(u, w));

/** Arguments a call may carry: any of the keys the tables read, each present or not. */
const args: fc.Arbitrary<JsonObject> = fc.record(
  {
    command: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('view', 'write', 'str_replace', '__proto__')),
    file_path: fc.string({ maxLength: 12 }),
    absolute_path: fc.string({ maxLength: 12 }),
    path: fc.string({ maxLength: 12 }),
    dir_path: fc.string({ maxLength: 12 }),
    paths: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }),
    url: fc.webUrl(),
    prompt: urlText,
  },
  { requiredKeys: [] },
);

describe('[AG2][I13] one table per agent, one rule for hooks and imported sessions', () => {
  it('[AG2][I13] an agent\'s session table holds its hook table\'s entries themselves (each entry written once)', () => {
    const pairs: [string, ToolTable][] = [
      ['claude-code', CLAUDE_TOOLS],
      ['gemini-cli', GEMINI_TOOLS],
      ['qwen-code', QWEN_TOOLS],
      ['copilot-cli', COPILOT_TOOLS],
      ['cursor', CURSOR_TOOLS],
    ];
    for (const [source, hook] of pairs) {
      const session = SESSION_TOOL_TABLES.get(source)!;
      for (const [name, entry] of hook.tools) expect(session.tools.get(name), `${source} ${name}`).toBe(entry);
    }
    // The contracts the hooks run on are these tables.
    expect(AGENT_CONTRACTS.get('claude')!.tools).toBe(CLAUDE_TOOLS.tools);
    expect(AGENT_CONTRACTS.get('gemini')!.tools).toBe(GEMINI_TOOLS.tools);
    expect(AGENT_CONTRACTS.get('qwen')!.tools).toBe(QWEN_TOOLS.tools);
    expect(AGENT_CONTRACTS.get('copilot')!.tools).toBe(COPILOT_TOOLS.tools);
    expect(AGENT_CONTRACTS.get('cursor')!.tools).toBe(CURSOR_TOOLS.tools);
    expect(AGENT_CONTRACTS.get('goose')!.tools).toBe(GOOSE_TOOLS.tools);
  });

  it('[AG2][I13] a Gemini CLI call has the same portable fields live (BeforeTool hook) and imported from its session file', () => {
    // Names with `__` are left out: the session importer takes any `server__tool` as MCP (older session files' MCP
    // names), the hook only `mcp_…` (its documented MCP names, mcp_<server>_<tool>).
    const name = fc.oneof(fc.constantFrom(...GEMINI_TOOLS.tools.keys(), 'mcp_db_query'), fc.stringMatching(/^[a-z][a-z_]{0,10}[a-z]$/).filter((n) => !n.includes('__')));
    fc.assert(
      fc.property(name, args, (tool, input) => {
        const live = agentAdapter('gemini').parse({ session_id: 's', transcript_path: '', cwd: '/', hook_event_name: 'BeforeTool', timestamp: TS, tool_name: tool, tool_input: input }, { ts: TS, seq: 1 });
        if (!live.ok) throw new Error(live.reason);
        const session = [
          { sessionId: 's1', projectHash: 'p', startTime: TS, lastUpdated: TS, kind: 'main' },
          { id: 'u1', timestamp: TS, type: 'user', content: [{ text: 'go' }] },
          { id: 'g1', timestamp: TS, type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: tool, args: input, status: 'executing', timestamp: TS }], model: 'gemini-2.5-pro' },
        ].map((l) => JSON.stringify(l)).join('\n');
        const imported = importTrace(`${session}\n`, { fileName: 'session-1.jsonl' });
        expect(imported.format).toBe('gemini-cli');
        const before = imported.trace!.events.find((e) => e.type === 'tool.before_call')!;
        expect(portableOf(before.payload)).toEqual(portableOf(live.event.payload));
      }),
      { numRuns: 150 },
    );
  });

  it('[AG2][I13] goose\'s text_editor is a read when it views, a write when it writes, else an edit: live and imported alike', () => {
    fc.assert(
      fc.property(args, (input) => {
        const live = portableFields(GOOSE_TOOLS, 'developer__text_editor', input);
        expect(sessionPortableFields('goose', 'text_editor', input)).toEqual(live);
        const c = input.command;
        expect(live.tool).toBe(c === 'view' ? 'read' : c === 'write' ? 'write' : 'edit');
      }),
    );
  });
});

describe('[AG2][I13] never guessed', () => {
  const fetchEntry = { tool: 'fetch' as const, url: ['url'], urlText: ['prompt'] };

  it('[AG2][I13] a URL in free text is `url` only when the text holds exactly one; none or several are reported missing', () => {
    // URLs as people write them in a prompt (the extractor stops at quotes, brackets and trailing punctuation).
    const url = fc.tuple(fc.domain(), fc.stringMatching(/^[a-z0-9_~/-]{0,12}$/)).map(([d, p]) => `https://${d}/${p}x`);
    fc.assert(
      fc.property(fc.uniqueArray(url, { maxLength: 4 }), fc.array(word, { maxLength: 5 }), fc.boolean(), (urls, words, twice) => {
        const f = portableFieldsOf(fetchEntry, { prompt: textWith(twice ? [...urls, ...urls] : urls, words) });
        if (urls.length === 1) {
          if (twice) urls.push(urls[0]!);
          expect(f).toEqual({ tool: 'fetch', url: urls[0], urls });
        } else {
          expect(f.url).toBeUndefined();
          expect(f.portable_missing).toEqual(['url']);
          if (urls.length > 1) expect(f.urls).toEqual(twice ? [...urls, ...urls] : urls);
        }
      }),
    );
  });

  it('[AG2][I13] a list of paths is `file_path` only when it holds one path; several are `file_paths` and file_path is missing', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 4 }), (paths) => {
        const f = portableFields(GEMINI_TOOLS, 'read_many_files', { paths });
        if (paths.length === 1) expect(f).toEqual({ tool: 'read', file_path: paths[0] });
        else expect(f).toEqual({ tool: 'read', file_paths: paths, portable_missing: ['file_path'] });
      }),
    );
  });

  it('[AG2] a shell call without a command and a file call without a path say so; a search without a place does not', () => {
    expect(portableFields(CLAUDE_TOOLS, 'Bash', { description: 'x' })).toEqual({ tool: 'shell', portable_missing: ['command'] });
    expect(portableFields(CLAUDE_TOOLS, 'Read', {})).toEqual({ tool: 'read', portable_missing: ['file_path'] });
    expect(portableFields(CLAUDE_TOOLS, 'Grep', { pattern: 'x' })).toEqual({ tool: 'search' });
    expect(portableFields(CLAUDE_TOOLS, 'Grep', { pattern: 'x', path: 'src' })).toEqual({ tool: 'search', file_path: 'src' });
    // Arguments that are no object read as none.
    expect(portableFields(CLAUDE_TOOLS, 'Bash', 'rm -rf /' as JsonValue)).toEqual({ tool: 'shell', portable_missing: ['command'] });
  });

  it('[AG2][I13] unknown names are `other`, never dropped; `__proto__`, `constructor` are plain names, in tables and in kinds', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'NewTool']) {
      for (const t of [CLAUDE_TOOLS, GEMINI_TOOLS, GOOSE_TOOLS]) expect(toolEntryOf(t, name).tool).toBe('other');
      expect(sessionPortableFields(name, 'Bash', { command: 'ls' })).toEqual({ tool: 'other' });
      expect(sessionPortableFields('claude-code', name, {}, { mcp: true })).toEqual({ tool: 'mcp' });
    }
    const protoCommand = JSON.parse('{"command": "__proto__", "path": "a"}') as JsonObject;
    expect(sessionPortableFields('goose', 'text_editor', protoCommand)).toEqual({ tool: 'edit', file_path: 'a' });
    const protoKey = JSON.parse('{"__proto__": "x", "command": "ls"}') as JsonObject;
    expect(portableFields(CLAUDE_TOOLS, 'Bash', protoKey)).toEqual({ tool: 'shell', command: 'ls' });
  });
});

describe('[AG2] the payload a call\'s fields are written on', () => {
  it('[AG2] portable fields win; the payload\'s own field of that name that says otherwise is kept as native_<name>', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), (mine, theirs) => {
        const p = setPortableFields({ tool_name: 'Bash', command: theirs, url: 'https://server.example/' }, { tool: 'shell', command: mine });
        expect(p.command).toBe(mine);
        expect(p.url).toBeUndefined();
        expect(p.native_url).toBe('https://server.example/');
        if (mine === theirs) expect(Object.hasOwn(p, 'native_command')).toBe(false);
        else expect(p.native_command).toBe(theirs);
      }),
    );
  });

  it('[AG2] two payloads written from one call\'s fields share no list', () => {
    const fields = portableFieldsOf(fetchEntryOfGemini(), { prompt: 'https://a.example/ and https://b.example/' });
    const before = setPortableFields({}, fields);
    const after = setPortableFields({}, fields);
    (before.urls as string[]).push('https://c.example/');
    expect(after.urls).toEqual(['https://a.example/', 'https://b.example/']);
    expect(fields.urls).toEqual(['https://a.example/', 'https://b.example/']);
  });
});

function fetchEntryOfGemini() {
  return toolEntryOf(GEMINI_TOOLS, 'web_fetch');
}
