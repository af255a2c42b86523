import { useState } from 'react';
import type { ReplayStep } from '../../../engine/app.ts';
import { valueBlock, valueLine } from '../model/labels.ts';
import { changeRows, type ChangeRow } from '../model/payloadChanges.ts';

const MAX_BLOCK = 50_000;

/** The payload before and after the handlers, as a readable diff of the engine's patch [X4]. */
export function PayloadChanges({ step }: { step: ReplayStep }) {
  const [full, setFull] = useState(false);
  const patch = step.explanation?.patch ?? [];
  const rows = changeRows(patch, step.payload_before);
  return (
    <section className="dbg-section" aria-label="Payload" data-testid="payload-section">
      <h3 className="section-title">
        Payload
        <button className="btn ghost dbg-mini" onClick={() => setFull(!full)} data-testid="payload-toggle">{full ? 'hide full payload' : 'before / after'}</button>
      </h3>
      {rows.length === 0 ? <p className="dbg-muted" data-testid="payload-unchanged">Unchanged by the handlers.</p> : <ChangeList rows={rows} withBefore />}
      {full && (
        <div className="dbg-before-after">
          <div><div className="field-label">Before</div><pre className="dbg-pre" data-testid="payload-before">{clip(valueBlock(step.payload_before))}</pre></div>
          <div><div className="field-label">After</div><pre className="dbg-pre" data-testid="payload-after">{clip(valueBlock(step.payload_after))}</pre></div>
        </div>
      )}
    </section>
  );
}

/** Changed fields: a string shows its changed middle struck out and the new text; other values before → after. */
export function ChangeList({ rows, withBefore }: { rows: ChangeRow[]; withBefore: boolean }) {
  return (
    <ul className="dbg-changes" data-testid="payload-diff">
      {rows.map((r, i) => (
        <li key={i} className={r.kind} data-testid="payload-change" data-path={r.path}>
          <div className="path mono">{r.path} <span className="kind">{r.kind}</span></div>
          {withBefore && r.text ? (
            <div className="mono text">
              {r.text.cutStart && '…'}{r.text.prefix}
              {r.text.removed && <del data-testid="diff-removed">{r.text.removed}</del>}
              {r.text.added && <ins data-testid="diff-added">{r.text.added}</ins>}
              {r.text.suffix}{r.text.cutEnd && '…'}
            </div>
          ) : (
            <div className="mono text">
              {withBefore && r.kind !== 'added' && <del data-testid="diff-removed">{valueLine(r.before, 400)}</del>}
              {r.kind !== 'removed' && <ins data-testid="diff-added">{valueLine(r.after, 400)}</ins>}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function clip(text: string): string {
  return text.length > MAX_BLOCK ? `${text.slice(0, MAX_BLOCK)}\n… (${(text.length - MAX_BLOCK).toLocaleString('en')} more characters)` : text;
}
