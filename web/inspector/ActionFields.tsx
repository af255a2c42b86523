import type { Action, RewriteOp, JsonValue } from '../../engine/app.ts';
import { CodeField } from '../code/CodeField.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Field, NumberField, SelectField, TextField } from './fields.tsx';
import { PathInput } from './PathInput.tsx';
import { ValueEditor } from './ValueEditor.tsx';
import { FlowFields } from './FlowFields.tsx';
import { compact } from './useUpdateNode.ts';
import { withBudgetKey } from '../model/nodeFactory.ts';

const TEMPLATE_HINT = 'Placeholders: {{payload.tool_name}}, {{state.calls}}, {{event.type}}. Text only, nothing runs.';

function RewriteOps({ ops, onChange }: { ops: RewriteOp[]; onChange: (ops: RewriteOp[]) => void }) {
  const set = (i: number, op: RewriteOp) => onChange(ops.map((o, j) => (j === i ? op : o)));
  const switchOp = (i: number, kind: RewriteOp['op']) => {
    const old = ops[i] as RewriteOp;
    const path = old.path ?? 'payload.';
    set(i, kind === 'set' ? { op: 'set', path, value: '' } : kind === 'remove' ? { op: 'remove', path } : { op: 'redact', path, replacement: '[REDACTED]' });
  };
  return (
    <div data-testid="rewrite-ops">
      {ops.map((op, i) => (
        <div className="clause" key={i} data-testid={`rewrite-op-${i}`}>
          <div className="clause-row">
            <select className="select op" value={op.op} aria-label="Operation" onChange={(e) => switchOp(i, e.target.value as RewriteOp['op'])}>
              <option value="set">set</option>
              <option value="remove">remove</option>
              <option value="redact">redact</option>
            </select>
            <PathInput value={op.path ?? ''} placeholder={op.op === 'redact' ? 'all strings' : 'payload.field'}
              onChange={(p) => set(i, op.op === 'redact' ? compact({ ...op, path: p || undefined }) : { ...op, path: p })} />
            <button className="btn ghost icon" aria-label="Remove operation" title="Remove operation" disabled={ops.length === 1}
              onClick={() => onChange(ops.filter((_, j) => j !== i))}><Icon name="close" size={12} /></button>
          </div>
          {op.op === 'set' && (
            <div className="clause-row"><span className="field-label" style={{ width: 128 }}>to value</span>
              <ValueEditor op="eq" value={op.value as JsonValue} onChange={(value) => set(i, { ...op, value })} /></div>
          )}
          {op.op === 'redact' && (
            <>
              <div className="clause-row"><span className="field-label" style={{ width: 128 }}>pattern (RE2)</span>
                <input className="input mono" value={op.pattern ?? ''} placeholder="the whole value" aria-label="Redact pattern" spellCheck={false}
                  onChange={(e) => set(i, compact({ ...op, pattern: e.target.value || undefined }))} /></div>
              <div className="clause-row"><span className="field-label" style={{ width: 128 }}>replace with</span>
                <input className="input mono" value={op.replacement} aria-label="Replacement" onChange={(e) => set(i, { ...op, replacement: e.target.value })} /></div>
            </>
          )}
        </div>
      ))}
      <button className="btn" data-testid="rewrite-add-op" onClick={() => onChange([...ops, { op: 'set', path: 'payload.', value: '' }])}><Icon name="plus" size={12} /> Operation</button>
    </div>
  );
}

/** The settings of each handler kind [H3]-[H6][H9]. */
export function ActionFields({ nodeId, action, onChange }: { nodeId: string; action: Action; onChange: (a: Action, field?: string) => void }) {
  switch (action.type) {
    case 'block':
    case 'terminate':
      return <TextField label="Reason" multiline mono value={action.reason} hint={TEMPLATE_HINT} testId="action-reason"
        onChange={(reason) => onChange({ ...action, reason }, 'reason')} />;
    case 'stop':
      return <TextField label="Reason (optional)" multiline mono value={action.reason ?? ''} hint={TEMPLATE_HINT} testId="action-reason"
        onChange={(reason) => onChange(compact({ ...action, reason: reason || undefined }), 'reason')} />;
    case 'ask':
      return <TextField label="Question for the person who approves" multiline mono value={action.reason} hint={TEMPLATE_HINT} testId="action-reason"
        onChange={(reason) => onChange({ ...action, reason }, 'reason')} />;
    case 'add_context':
      return <TextField label="Text for the model" multiline mono value={action.text} hint={TEMPLATE_HINT} testId="action-text"
        onChange={(text) => onChange({ ...action, text }, 'text')} />;
    case 'rewrite':
      return <Field label="Operations, in order"><RewriteOps ops={action.ops} onChange={(ops) => onChange({ ...action, ops }, 'ops')} /></Field>;
    case 'audit':
      return (
        <>
          <SelectField label="Level" value={action.level} options={[{ value: 'info', label: 'info' }, { value: 'warn', label: 'warn' }, { value: 'error', label: 'error' }]}
            onChange={(level) => onChange({ ...action, level }, 'level')} />
          <TextField label="Message (optional)" mono value={action.message ?? ''} hint={TEMPLATE_HINT}
            onChange={(message) => onChange(compact({ ...action, message: message || undefined }), 'message')} />
          <TextField label="Fields copied into the record" mono value={(action.fields ?? []).join(', ')} placeholder="payload.tool_name, meta.user_id" testId="audit-fields"
            onChange={(t) => {
              const fields = t.split(',').map((s) => s.trim()).filter(Boolean);
              onChange(compact({ ...action, fields: fields.length ? fields : undefined }), 'fields');
            }} />
        </>
      );
    case 'budget':
      return (
        <>
          <TextField label="State key" mono value={action.key} testId="budget-key" hint="Accumulates in state across the trace's events."
            onChange={(key) => onChange(withBudgetKey(action, key), 'key')} />
          {/* One amount or the other: a path replaces the fixed amount, a fixed amount clears the path. */}
          <Field label="Amount from path (optional)">
            <PathInput value={action.amount_path ?? ''} placeholder="payload.usage.output_tokens" testId="budget-amount-path"
              onChange={(p) => onChange(compact({ ...action, amount_path: p || undefined, amount: p ? undefined : action.amount }), 'amount_path')} />
          </Field>
          <div className="row">
            <div className="grow"><NumberField label="Fixed amount" value={action.amount} optional placeholder={action.amount_path ? 'from the path' : '1'} testId="budget-amount"
              onChange={(amount) => onChange(compact({ ...action, amount, amount_path: amount === undefined ? action.amount_path : undefined }), 'amount')} /></div>
            <div className="grow"><NumberField label="Limit" value={action.limit} testId="budget-limit"
              onChange={(limit) => limit !== undefined && onChange({ ...action, limit }, 'limit')} /></div>
          </div>
          <SelectField label="Past the limit" value={action.on_exceed} options={[{ value: 'block', label: 'Block the action' }, { value: 'terminate', label: 'Terminate the run' }]}
            onChange={(on_exceed) => onChange({ ...action, on_exceed }, 'on_exceed')} />
          <TextField label="Reason (optional)" mono multiline value={action.reason ?? ''} hint={TEMPLATE_HINT} testId="budget-reason"
            onChange={(reason) => onChange(compact({ ...action, reason: reason || undefined }), 'reason')} />
        </>
      );
    case 'flow':
      return <FlowFields action={action} onChange={onChange} />;
    case 'code':
      return (
        <CodeField nodeId={nodeId} spec={action}
          onChange={(spec) => onChange({ ...spec, type: 'code' }, 'code-source')} />
      );
  }
}
