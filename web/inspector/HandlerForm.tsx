import { HANDLER_ACTION_TYPES, type Action, type HandlerNode } from '../../engine/app.ts';
import { ACTION_LABELS } from '../model/describeAction.ts';
import { defaultAction } from '../model/nodeFactory.ts';
import { ActionFields } from './ActionFields.tsx';
import { Checkbox, NumberField, SelectField, TextField } from './fields.tsx';
import { compact, useUpdateNode } from './useUpdateNode.ts';

const ERROR_POLICIES = [
  { value: 'block', label: 'Block the action (fail closed)' },
  { value: 'continue', label: 'Continue (fail open)' },
  { value: 'terminate', label: 'Terminate the run' },
] as const;

/** Handler node: what it does, when it runs relative to others, and how it fails [H1][E1][E3][H8]. */
export function HandlerForm({ node }: { node: HandlerNode }) {
  const update = useUpdateNode(node);
  const setAction = (action: Action, field = 'action') => update({ ...node, action }, field);
  return (
    <div>
      <TextField label="Name" value={node.name} testId="handler-name" onChange={(name) => update({ ...node, name }, 'name')} />
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <div className="grow">
          <SelectField label="Kind" value={node.action.type} testId="handler-kind"
            options={HANDLER_ACTION_TYPES.map((t) => ({ value: t, label: ACTION_LABELS[t] }))}
            onChange={(t) => (t === node.action.type ? undefined : update({ ...node, action: defaultAction(t) }, 'kind', `Make ${ACTION_LABELS[t]}`))} />
        </div>
        <div style={{ width: 96 }}>
          <NumberField label="Order" value={node.order} testId="handler-order" onChange={(order) => order !== undefined && update({ ...node, order }, 'order')} />
        </div>
      </div>
      <div className="row" style={{ gap: 18, marginBottom: 14 }}>
        <Checkbox label="Enabled" checked={node.enabled} testId="handler-enabled" onChange={(enabled) => update({ ...node, enabled }, 'enabled')} />
        <Checkbox label="Shadow mode" checked={node.shadow} testId="handler-shadow" hint="Evaluated and reported, never enforced"
          onChange={(shadow) => update({ ...node, shadow }, 'shadow')} />
      </div>

      <div className="section-title">{ACTION_LABELS[node.action.type]}</div>
      <ActionFields nodeId={node.id} action={node.action} onChange={setAction} />

      <div className="section-title">Errors and time</div>
      <SelectField label="On error or timeout" value={node.on_error} options={ERROR_POLICIES} testId="handler-on-error"
        hint="What a sync handler's failure decides. Async events only log errors."
        onChange={(on_error) => update({ ...node, on_error }, 'on_error')} />
      <NumberField label="Timeout (ms)" value={node.timeout_ms} optional integer min={1} placeholder="engine default" testId="handler-timeout"
        onChange={(timeout_ms) => update(compact({ ...node, timeout_ms }), 'timeout_ms')} />
      <Checkbox label="Circuit breaker" checked={node.breaker !== undefined} testId="handler-breaker"
        hint="Skip the handler for a cool-down after K failures in a row"
        onChange={(on) => update(compact({ ...node, breaker: on ? { threshold: 3, cooldown_ms: 60_000 } : undefined }), 'breaker')} />
      {node.breaker && (
        <div className="row" style={{ marginTop: 10 }}>
          <div className="grow">
            <NumberField label="Failures to open" value={node.breaker.threshold} integer min={1} testId="breaker-threshold"
              onChange={(threshold) => threshold !== undefined && node.breaker && update({ ...node, breaker: { ...node.breaker, threshold } }, 'breaker.threshold')} />
          </div>
          <div className="grow">
            <NumberField label="Cool-down (ms)" value={node.breaker.cooldown_ms} integer min={0} testId="breaker-cooldown"
              onChange={(cooldown_ms) => cooldown_ms !== undefined && node.breaker && update({ ...node, breaker: { ...node.breaker, cooldown_ms } }, 'breaker.cooldown')} />
          </div>
        </div>
      )}
    </div>
  );
}
