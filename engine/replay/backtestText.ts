// The backtest report for people [B3]: markdown that fits a pull-request comment and one self-contained HTML
// file. Everything that comes from a trace or a pipeline (file names, ids, reasons, payloads) is untrusted:
// markdown escapes its punctuation and HTML's characters, HTML escapes everything, and the page has no script.
import type { BacktestCategory, ViolatedLabel } from './backtest.ts';
import { topDifferences, type BacktestReport, type LocatedDifference } from './backtestReport.ts';

export const CATEGORY_LABELS: Record<BacktestCategory, string> = {
  new_block: 'new block',
  lifted_block: 'lifted block',
  new_ask: 'new ask',
  changed_rewrite: 'changed rewrite',
  other: 'other',
};

export interface BacktestTextOptions {
  /** How many differences to list (default 20 in markdown, 200 in HTML). */
  top?: number;
}

const n = (x: number, one: string, many = `${one}s`): string => `${x.toLocaleString('en-US')} ${x === 1 ? one : many}`;

/** The headline: "14 new blocks, 2 lifted blocks, … — 20 of 12,345 events differ in 9 of 30 files". */
export function backtestHeadline(r: BacktestReport): string {
  const t = r.total;
  const differing = r.files.filter((f) => f.changed > 0).length;
  const parts = [n(t.new_blocks, 'new block'), n(t.lifted_blocks, 'lifted block'), n(t.new_asks, 'new ask'), n(t.changed_rewrites, 'changed rewrite'), `${t.other.toLocaleString('en-US')} other`];
  const skipped = t.skipped > 0 ? `; ${n(t.skipped, 'file')} skipped` : '';
  const labels = t.labels > 0 ? `; ${t.labels_violated.toLocaleString('en-US')} of ${n(t.labels, 'label')} violated` : '';
  return `${parts.join(', ')}: ${t.changed.toLocaleString('en-US')} of ${n(t.events, 'event')} differ in ${differing} of ${n(t.files, 'file')}${skipped}${labels}`;
}

/** Markdown text: punctuation that could format, link or open HTML is escaped; one line. */
export function mdText(s: string, max = 120): string {
  const one = s.replace(/\s+/g, ' ');
  const cut = one.length > max ? `${one.slice(0, max - 1)}…` : one;
  return cut.replace(/[\\`*_{}[\]()#+\-.!|~>]/g, (c) => `\\${c}`).replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

const side = (s: LocatedDifference['a']): string => `${s.outcome}${s.decided_by ? ` (${s.decided_by})` : ''}${s.reason ? `: ${s.reason}` : ''}`;

/**
 * The markdown report [B3]: totals first, then the top differences with file and step, then unguarded calls,
 * dead matchers, unheard event types and skipped files.
 */
export function backtestMarkdown(r: BacktestReport, options: BacktestTextOptions = {}): string {
  const top = topDifferences(r.files, options.top ?? 20);
  const t = r.total;
  const out: string[] = [];
  out.push(`### Hookwire backtest: ${mdText(r.old, 60)} → ${mdText(r.new, 60)}`, '');
  out.push(`**${mdText(backtestHeadline(r), 400)}**`, '');
  out.push('| new blocks | lifted blocks | new asks | changed rewrites | other | changed | events | files | skipped |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  out.push(`| ${[t.new_blocks, t.lifted_blocks, t.new_asks, t.changed_rewrites, t.other, t.changed, t.events, t.files, t.skipped].join(' | ')} |`, '');
  const violated = violatedLabels(r, 50);
  if (violated.length > 0) {
    // Labels first [B7]: a person said what these steps should do.
    out.push(`#### Violated labels (${t.labels_violated} of ${t.labels})`, '', '| file | step | event | expected | now | note |', '|---|---:|---|---|---|---|');
    for (const v of violated) out.push(`| ${mdText(v.file, 80)} | ${v.step} | ${mdText(v.event_id, 40)} | ${mdText(v.expected?.decision ?? 'unreadable label', 30)} | ${mdText(v.failures.join('; '), 160)} | ${mdText(v.expected?.note ?? '', 120)} |`);
    out.push('');
  }
  if (top.length > 0) {
    out.push(`#### Top differences${t.changed > top.length ? ` (${top.length} of ${t.changed})` : ''}`, '');
    out.push('| | file | step | event | type | old | new |', '|---|---|---:|---|---|---|---|');
    for (const d of top) {
      out.push(`| ${CATEGORY_LABELS[d.category]} | ${mdText(d.file, 80)} | ${d.step} | ${mdText(d.event_id, 40)} | ${mdText(d.type, 30)} | ${mdText(side(d.a))} | ${mdText(side(d.b))} |`);
    }
    out.push('');
  }
  if (r.unguarded.length > 0) {
    out.push('#### Unguarded tool calls', '', 'Tool calls no handler of the new pipeline matched.', '', '| agent | tool | calls | files |', '|---|---|---:|---:|');
    for (const u of r.unguarded.slice(0, 30)) out.push(`| ${mdText(u.agent, 60)} | ${mdText(u.tool, 60)} | ${u.count} | ${u.files} |`);
    if (r.unguarded.length > 30) out.push(`| … ${r.unguarded.length - 30} more | | | |`);
    out.push('');
  }
  if (r.never_matched.length > 0) {
    out.push('#### Matchers that never matched', '');
    for (const m of r.never_matched) out.push(`- ${mdText(m.label, 80)} (${mdText(m.matcher_id, 60)})${m.handlers.length ? `, before ${m.handlers.map((h) => mdText(h, 60)).join(', ')}` : ''}`);
    out.push('');
  }
  if (r.never_sent.length > 0) {
    out.push('#### Event types listened to that no trace sent', '');
    for (const e of r.never_sent) out.push(`- ${mdText(e.pattern, 80)} (event node ${mdText(e.event_node_id, 60)})`);
    out.push('');
  }
  if (r.skipped.length > 0) {
    out.push(`#### Skipped files (${r.skipped.length})`, '');
    for (const s of r.skipped.slice(0, 50)) out.push(`- ${mdText(s.file, 120)}: ${mdText(s.reason, 200)}`);
    if (r.skipped.length > 50) out.push(`- … ${r.skipped.length - 50} more`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

/** The violated labels of the report with their file, in file and step order, at most `limit` [B7]. */
export function violatedLabels(r: BacktestReport, limit: number): (ViolatedLabel & { file: string })[] {
  const out: (ViolatedLabel & { file: string })[] = [];
  for (const f of r.files) for (const v of f.violated_labels) if (out.length < limit) out.push({ ...v, file: f.file });
  return out;
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1f24}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}td.n{text-align:right}
.new_block{color:#b42318;font-weight:600}.lifted_block{color:#1a7f37}.new_ask{color:#9a6700}pre{margin:0;max-width:40rem;overflow:auto;white-space:pre-wrap}`;

/** The HTML report [B3]: one file, its style inline, no script, every value escaped. */
export function backtestHtml(r: BacktestReport, options: BacktestTextOptions = {}): string {
  const e = escapeHtml;
  const t = r.total;
  const top = topDifferences(r.files, options.top ?? 200);
  const row = (cells: string[]) => `<tr>${cells.join('')}</tr>`;
  const td = (s: string | number, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${typeof s === 'number' ? s : e(s)}</td>`;
  const th = (s: string) => `<th>${e(s)}</th>`;
  const body: string[] = [];
  body.push(`<h1>Hookwire backtest: ${e(r.old)} → ${e(r.new)}</h1>`, `<p><strong>${e(backtestHeadline(r))}</strong></p>`);
  body.push(`<table><tr>${['new blocks', 'lifted blocks', 'new asks', 'changed rewrites', 'other', 'changed', 'events', 'files', 'skipped'].map(th).join('')}</tr>`);
  body.push(`${row([t.new_blocks, t.lifted_blocks, t.new_asks, t.changed_rewrites, t.other, t.changed, t.events, t.files, t.skipped].map((x) => td(x, 'n')))}</table>`);
  const violated = violatedLabels(r, 500);
  if (violated.length > 0) {
    body.push(`<h2>Violated labels (${t.labels_violated} of ${t.labels})</h2><table><tr>${['file', 'step', 'event', 'expected', 'now', 'note'].map(th).join('')}</tr>`);
    for (const v of violated) body.push(row([td(v.file), td(v.step, 'n'), td(v.event_id), td(v.expected?.decision ?? 'unreadable label', 'new_block'), td(v.failures.join('; ')), td(v.expected?.note ?? '')]));
    body.push('</table>');
  }
  if (top.length > 0) {
    body.push(`<h2>Differences${t.changed > top.length ? ` (${top.length} of ${t.changed})` : ''}</h2><table><tr>${['', 'file', 'step', 'event', 'type', 'old', 'new', 'new payload'].map(th).join('')}</tr>`);
    for (const d of top) {
      body.push(row([td(CATEGORY_LABELS[d.category], d.category), td(d.file), td(d.step, 'n'), td(d.event_id), td(d.type), td(side(d.a)), td(side(d.b)), `<td><pre>${d.changes.includes('payload') ? e(JSON.stringify(d.b.payload, null, 1).slice(0, 4000)) : ''}</pre></td>`]));
    }
    body.push('</table>');
  }
  body.push(`<h2>Files (${r.files.length})</h2><table><tr>${['file', 'format', 'events', 'changed', 'new blocks', 'lifted blocks', 'new asks', 'changed rewrites', 'other'].map(th).join('')}</tr>`);
  for (const f of r.files) body.push(row([td(f.file), td(f.format), ...[f.events, f.changed, f.new_blocks, f.lifted_blocks, f.new_asks, f.changed_rewrites, f.other].map((x) => td(x, 'n'))]));
  body.push('</table>');
  if (r.unguarded.length > 0) {
    body.push(`<h2>Unguarded tool calls</h2><table><tr>${['agent', 'tool', 'calls', 'files'].map(th).join('')}</tr>`);
    for (const u of r.unguarded) body.push(row([td(u.agent), td(u.tool), td(u.count, 'n'), td(u.files, 'n')]));
    body.push('</table>');
  }
  const list = (title: string, items: string[]) => (items.length ? `<h2>${e(title)}</h2><ul>${items.map((i) => `<li>${e(i)}</li>`).join('')}</ul>` : '');
  body.push(list('Matchers that never matched', r.never_matched.map((m) => `${m.label} (${m.matcher_id})${m.handlers.length ? `, before ${m.handlers.join(', ')}` : ''}`)));
  body.push(list('Event types listened to that no trace sent', r.never_sent.map((s) => `${s.pattern} (event node ${s.event_node_id})`)));
  body.push(list('Skipped files', r.skipped.map((s) => `${s.file}: ${s.reason}`)));
  // No script and nothing loaded from elsewhere: the page's CSP says so to a browser that opens it.
  const csp = "default-src 'none'; style-src 'unsafe-inline'";
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><title>Hookwire backtest</title><style>${STYLE}</style></head>\n<body>\n${body.join('\n')}\n</body></html>\n`;
}
