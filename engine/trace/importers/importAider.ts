import type { JsonObject, JsonValue } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { traceProblem, type TraceProblem } from '../traceProblem.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { toIsoTs } from './toIsoTs.ts';

/** An edit the model wrote (a SEARCH/REPLACE block or a udiff), waiting for aider's verdict. */
interface Edit {
  id: string;
  path: string;
  input: JsonObject;
  done: boolean;
}

/** A shell command aider ran, collecting the output lines after it. */
interface Run {
  id: string;
  command: string;
  /** `/test` adds the output to the chat only when the command failed (commands.py cmd_run add_on_nonzero_exit). */
  test: boolean;
  lines: string[];
}

const STARTED = /^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$/;
const MODEL = /^(?:Main model|Model): (\S+) with (\S+) edit format/;
const TOKENS = /^Tokens: ([\d.]+)(k|M)? sent, (?:([\d.]+)(k|M)? cache write, )?(?:([\d.]+)(k|M)? cache hit, )?([\d.]+)(k|M)? received\./;
const APPLIED = /^Applied edit to (.+)$/;
const RUNNING = /^Running (.+)$/;
const NONCONFORM = 'The LLM did not conform to the edit format.';
const SEARCH_BLOCK = /(?:^|\n)([^\n`]+?)\n```[^\n]*\n<<<<<<< SEARCH\n([\s\S]*?)\n?=======\n([\s\S]*?)\n?>>>>>>> REPLACE\n```/g;
const UDIFF = /(?:^|\n)```diff\n--- (\S+)\n\+\+\+ (\S+)\n([\s\S]*?)\n```/g;

/**
 * aider's chat history (`.aider.chat.history.md` in the project) → trace v1, read line by line [I17].
 * Source: Aider-AI/aider 0.86 (commit 5dc9490, 2026-05) aider/io.py (`append_chat_history`: `# aider chat
 * started at <local time>`, user input as `#### ` lines, tool output as `> ` lines, model text as is) and
 * aider/coders/base_coder.py (`Running <cmd>`, `Applied edit to <path>`, `The LLM did not conform to the edit
 * format.`, `Tokens: … sent, … received.`, `Main model: <name> with <format> edit format`), commands.py (`/run`, `/test`).
 *
 * | history                                       | event(s)                                 | payload                                  |
 * |-----------------------------------------------|------------------------------------------|------------------------------------------|
 * | first `# aider chat started at …`             | agent.start (later ones: annotation `run`)| run, started                             |
 * | `#### …` lines                                | input.received                           | prompt                                   |
 * | `#### /run cmd`, `#### !cmd`, `#### /test cmd`, `> Running cmd` | tool.before_call + tool.after_call (`run`) | command; tool_response = the output lines aider logged; is_error for `/test` output added, or an error running it |
 * | model text                                    | model.before_call + model.after_call     | model (from `Model:`), response, usage (`Tokens:` line) |
 * | its SEARCH/REPLACE blocks (or udiffs)         | tool.before_call (`edit`)                | path, search, replace                    |
 * | `> Applied edit to P` / `> The LLM did not conform …` | tool.after_call                  | is_error false / true with aider's error lines |
 * | model text with no edit, last before the next prompt or the end | final_answer.before + .after | text                                  |
 * | other `> ` lines                              | annotations `output`                     |                                          |
 *
 * The file has only these three kinds of line, so nothing in it is of an unknown kind. aider writes local
 * times without a zone: they are read as UTC (noted). It does not log a `/run` command's exit code.
 */
export class AiderImporter {
  private readonly b: TraceBuilder;
  private runTs: string | null = null;
  private runs = 0;
  private model: string | null = null;
  private prompt: string[] | null = null;
  private text: string[] = [];
  private textLine = 0;
  private held: { id: string; text: string; usage: JsonObject | null; edits: Edit[] } | null = null;
  private failing: { edits: Edit[]; lines: string[] } | null = null;
  private run: Run | null = null;
  private final: { id: string; text: string } | null = null;
  private lastWasAnswer = false;
  private ids = 0;
  readonly problems: TraceProblem[] = [];

  constructor(
    private readonly options: ImporterOptions,
    onEvent?: (event: TraceEvent) => void,
  ) {
    this.b = new TraceBuilder('aider', 'aider', options.fallbackTraceId ?? 'aider', 'aider', options.ids);
    if (onEvent) this.b.streamTo(onEvent);
  }

  line(raw: string, lineNo: number, terminated: boolean): void {
    if (!terminated && raw.trim() !== '') this.problems.push(traceProblem('truncated', lineNo, 'the file ends in the middle of this line; the line was read as it is'));
    // aider ends logged lines with two spaces (a Markdown line break).
    const text = raw.replace(/ {2}$/, '');
    const started = STARTED.exec(text);
    if (started) return this.startRun(started[1] as string, lineNo);
    if (text.startsWith('#### ') || text === '####') {
      if (this.prompt === null) {
        this.endText();
        this.endOutput();
      }
      this.prompt ??= [];
      this.prompt.push(text.slice(5));
      return;
    }
    this.endPrompt();
    if (text.startsWith('> ') || text === '>') return this.output(text.slice(2).trim());
    if (this.text.length === 0 && text.trim() === '') return;
    if (this.text.length === 0) this.textLine = lineNo;
    this.endOutput();
    this.text.push(raw);
  }

  finish(lines: number): ImportResult {
    this.endPrompt();
    this.endText();
    this.endOutput();
    this.flushModel();
    this.emitFinal();
    this.warnUnanswered();
    if (this.runs === 0) this.startRun(null, 0);
    const b = this.b;
    b.emit('agent.end', 'end', b.latestTs, { status: this.lastWasAnswer ? 'completed' : 'incomplete', runs: this.runs });
    if (this.runTs !== null) b.note('aider writes local times without a time zone: they were read as UTC');
    const source: JsonObject = { kind: 'aider', runs: this.runs };
    if (this.options.fileName) source.file_name = this.options.fileName;
    const result = b.finish(source as JsonObject & { kind: string }, lines);
    if (result.ok) result.problems = [...this.problems, ...(result.problems ?? [])];
    return result;
  }

  private next(prefix: string): string {
    return `${prefix}${++this.ids}`;
  }

  private startRun(local: string | null, lineNo: number): void {
    this.endPrompt();
    this.endText();
    this.endOutput();
    this.flushModel();
    this.emitFinal();
    this.runs++;
    this.runTs = local ? (toIsoTs(local.replace(' ', 'T'))?.iso ?? null) : null;
    if (this.runs === 1) this.b.emit('agent.start', 'start', this.runTs, local ? { run: 1, started: local } : { run: 1 });
    else this.b.annotate('run', { run: this.runs, started: local ?? '', line: lineNo });
  }

  private endPrompt(): void {
    if (this.prompt === null) return;
    const prompt = this.prompt.join('\n');
    this.prompt = null;
    if (this.runs === 0) this.startRun(null, 0);
    this.flushModel();
    this.emitFinal();
    this.lastWasAnswer = false;
    const id = this.next('p');
    this.b.emit('input.received', `${id}:input`, this.runTs, { prompt: prompt === '<blank>' ? '' : prompt });
    const cmd = /^(?:\/run |!)([\s\S]+)$/.exec(prompt) ?? /^\/test ([\s\S]+)$/.exec(prompt);
    if (cmd) this.startCommand((cmd[1] as string).trim(), prompt.startsWith('/test '));
  }

  private startCommand(command: string, test: boolean): void {
    this.endOutput();
    const id = this.next('r');
    const input = { command };
    this.b.emit('tool.before_call', `${id}:before`, this.runTs, setPortableFields({ tool_name: 'run', tool_input: input, tool_use_id: id }, sessionPortableFields('aider', 'run', input)));
    this.run = { id, command, test, lines: [] };
  }

  /** Model text ends at the next prompt or output line: it becomes one model call, held for its `Tokens:` line. */
  private endText(): void {
    if (this.text.length === 0) return;
    const text = this.text.join('\n').trim();
    this.text = [];
    if (text === '') return;
    if (this.runs === 0) this.startRun(null, 0);
    this.flushModel();
    this.emitFinal();
    const id = `m${this.textLine}`;
    const edits: Edit[] = [];
    for (const m of text.matchAll(SEARCH_BLOCK)) edits.push(this.edit((m[1] as string).trim(), { path: (m[1] as string).trim(), search: m[2] as string, replace: m[3] as string }));
    for (const m of text.matchAll(UDIFF)) edits.push(this.edit((m[2] as string).replace(/^b\//, ''), { path: (m[2] as string).replace(/^b\//, ''), diff: m[3] as string }));
    this.held = { id, text, usage: null, edits };
  }

  private edit(path: string, input: JsonObject): Edit {
    return { id: this.next('e'), path, input, done: false };
  }

  /** Emits the held model call, then its edits' starts (their results follow as aider reports them). */
  private flushModel(): void {
    const h = this.held;
    if (!h) return;
    this.held = null;
    const b = this.b;
    const before: JsonObject = { message_id: h.id };
    if (this.model) before.model = this.model;
    b.emit('model.before_call', `${h.id}:model.before`, this.runTs, before);
    const response: JsonValue[] = [{ type: 'text', text: h.text }, ...h.edits.map((e) => ({ type: 'tool_use', id: e.id, name: 'edit', input: e.input }))];
    const after: JsonObject = { ...before, response };
    if (h.usage) after.usage = h.usage;
    b.emit('model.after_call', `${h.id}:model.after`, this.runTs, after);
    for (const e of h.edits) b.emit('tool.before_call', `${e.id}:before`, this.runTs, setPortableFields({ tool_name: 'edit', tool_input: e.input, tool_use_id: e.id }, sessionPortableFields('aider', 'edit', e.input)));
    this.warnUnanswered();
    this.pendingEdits = h.edits;
    this.lastWasAnswer = h.edits.length === 0;
    if (this.lastWasAnswer) this.final = { id: h.id, text: h.text };
  }

  private pendingEdits: Edit[] = [];

  private warnUnanswered(): void {
    for (const e of this.pendingEdits) if (!e.done) this.b.warn(`edit ${e.id} of ${e.path} has no "Applied edit" or failure report in the history`);
    this.pendingEdits = [];
  }

  private output(line: string): void {
    this.endText();
    const model = MODEL.exec(line);
    if (model) this.model = model[1] as string;
    const tokens = TOKENS.exec(line);
    if (tokens && this.held && this.held.usage === null) {
      this.held.usage = { sent: amount(tokens[1], tokens[2]), received: amount(tokens[7], tokens[8]), text: line };
      if (tokens[5] !== undefined) this.held.usage.cache_hit = amount(tokens[5], tokens[6]);
      if (tokens[3] !== undefined) this.held.usage.cache_write = amount(tokens[3], tokens[4]);
      return;
    }
    this.flushModel();
    const applied = APPLIED.exec(line);
    const running = RUNNING.exec(line);
    if (applied || running || line === NONCONFORM) this.endOutput();
    if (applied) return this.applied((applied[1] as string).trim(), line);
    if (running) return this.startCommand((running[1] as string).trim(), false);
    if (line === NONCONFORM) {
      this.failing = { edits: this.pendingEdits.filter((e) => !e.done), lines: [line] };
      this.pendingEdits = [];
      return;
    }
    if (this.failing) return void this.failing.lines.push(line);
    if (this.run) return void this.run.lines.push(line);
    if (line !== '') this.b.annotate('output', { text: line });
  }

  private applied(path: string, line: string): void {
    let e = this.pendingEdits.find((x) => !x.done && x.path === path);
    if (!e) {
      // A whole-file edit has no block to read: the report names the file.
      e = this.edit(path, { path });
      this.final = null;
      this.lastWasAnswer = false;
      this.b.emit('tool.before_call', `${e.id}:before`, this.runTs, setPortableFields({ tool_name: 'edit', tool_input: e.input, tool_use_id: e.id }, sessionPortableFields('aider', 'edit', e.input)));
    }
    e.done = true;
    this.b.emit('tool.after_call', `${e.id}:after`, this.runTs, setPortableFields({ tool_name: 'edit', tool_input: e.input, tool_response: line, is_error: false, tool_use_id: e.id }, sessionPortableFields('aider', 'edit', e.input)));
  }

  /** Ends a running command (its output lines) or a failed edit report (its error lines). */
  private endOutput(): void {
    const r = this.run;
    if (r) {
      this.run = null;
      const out = r.lines.join('\n').trim();
      const failed = /^Error occurred while running command/m.test(out) || (r.test && /^Added \d+ lines? of output to the chat\.$/m.test(out));
      const input = { command: r.command };
      this.b.emit('tool.after_call', `${r.id}:after`, this.runTs, setPortableFields({ tool_name: 'run', tool_input: input, tool_response: out, is_error: failed, tool_use_id: r.id }, sessionPortableFields('aider', 'run', input)));
    }
    const f = this.failing;
    if (f) {
      this.failing = null;
      const why = f.lines.join('\n').trim();
      for (const e of f.edits) {
        e.done = true;
        this.b.emit('tool.after_call', `${e.id}:after`, this.runTs, setPortableFields({ tool_name: 'edit', tool_input: e.input, tool_response: why, is_error: true, tool_use_id: e.id }, sessionPortableFields('aider', 'edit', e.input)));
      }
      if (f.edits.length === 0) this.b.annotate('output', { text: why });
    }
  }

  private emitFinal(): void {
    const f = this.final;
    if (!f) return;
    this.final = null;
    this.b.finalAnswer(f.id, this.runTs, { text: f.text });
  }
}

/** aider's `format_tokens`: 950, 2.1k, 12k, 1.2M. */
function amount(n: string | undefined, unit: string | undefined): number {
  const v = Number(n ?? '0');
  return Math.round(unit === 'k' ? v * 1000 : unit === 'M' ? v * 1e6 : v);
}
