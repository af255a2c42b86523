import type { Action, Condition, FlowRuleKind, FlowSelector } from '../../engine/app.ts';
import { Checkbox, Field, NumberField, SelectField, TextField } from './fields.tsx';
import { ConditionEditor } from './ConditionEditor.tsx';
import { PathInput } from './PathInput.tsx';
import { compact } from './useUpdateNode.ts';

type Flow = Extract<Action, { type: 'flow' }>;

const RULES: readonly { value: FlowRuleKind; label: string }[] = [
  { value: 'sequence', label: 'Sequence: an earlier event, then this one' },
  { value: 'flag', label: 'Flag: set by one event, cleared by another' },
  { value: 'window', label: 'Window: N events within a time' },
  { value: 'precondition', label: 'Precondition: only if C since the last D' },
];

/** What `mark` and `clear` mean for each construct [F1], in the words of the form. */
const ROLE: Record<FlowRuleKind, { mark: string; clear: string; toggle: string }> = {
  sequence: { mark: 'Earlier event (A)', clear: 'Forgets A', toggle: 'An event makes it forget A' },
  flag: { mark: 'Sets the flag', clear: 'Clears the flag', toggle: 'An event clears the flag' },
  window: { mark: 'Counted events', clear: 'Resets the count', toggle: 'An event resets the count' },
  precondition: { mark: 'Must have happened (C)', clear: 'Reset (D)', toggle: 'An event resets it (D)' },
};

const DECISIONS = [
  { value: 'block', label: 'Block the action' },
  { value: 'ask', label: 'Ask for approval' },
  { value: 'terminate', label: 'Terminate the run' },
] as const;

const NEW_CONDITION: Condition = { 'payload.tool_name': { exists: true } };

/** An earlier-event selector: its event pattern and, when asked for, a condition on that event [F2]. */
function SelectorFields({ label, value, onChange, testId }: { label: string; value: FlowSelector; onChange: (s: FlowSelector) => void; testId: string }) {
  return (
    <div className="flow-selector" data-testid={testId}>
      <TextField label={`${label}: event type`} mono value={value.event} placeholder="tool.after_call" testId={`${testId}-event`}
        hint="Exact, prefix.* or *." onChange={(event) => onChange({ ...value, event })} />
      <Checkbox label="Only when a condition holds" checked={value.when !== undefined} testId={`${testId}-use-when`}
        onChange={(on) => onChange(compact({ ...value, when: on ? NEW_CONDITION : undefined }))} />
      {value.when !== undefined && <ConditionEditor value={value.when} onChange={(when) => onChange({ ...value, when })} />}
    </div>
  );
}

/** The settings of a flow rule [F1]-[F9]: the construct, what it remembers and forgets, its window and key, its decision. */
export function FlowFields({ action, onChange }: { action: Flow; onChange: (a: Action, field?: string) => void }) {
  const role = ROLE[action.rule];
  const setRule = (rule: FlowRuleKind) => {
    // A window needs its length and counts `limit` events; the others refuse a limit other than 1 [F1].
    const windowed = rule === 'window';
    onChange(compact({ ...action, rule, limit: windowed ? action.limit ?? 3 : undefined, within_ms: windowed ? action.within_ms ?? 60_000 : action.within_ms }), 'rule');
  };
  const same = action.same;
  return (
    <div className="flow-fields" data-testid="flow-fields">
      <SelectField label="Rule" value={action.rule} options={RULES} testId="flow-rule" onChange={setRule} />
      <SelectorFields label={role.mark} value={action.mark} testId="flow-mark" onChange={(mark) => onChange({ ...action, mark }, 'mark')} />
      <Checkbox label={role.toggle} checked={action.clear !== undefined} testId="flow-use-clear"
        onChange={(on) => onChange(compact({ ...action, clear: on ? { event: 'tool.before_call' } : undefined }), 'clear')} />
      {action.clear && <SelectorFields label={role.clear} value={action.clear} testId="flow-clear" onChange={(clear) => onChange({ ...action, clear }, 'clear')} />}
      <div className="row">
        {action.rule === 'window' && (
          <div className="grow"><NumberField label="Limit (events)" value={action.limit} integer min={1} testId="flow-limit"
            onChange={(limit) => limit !== undefined && onChange({ ...action, limit }, 'limit')} /></div>
        )}
        <div className="grow"><NumberField label={action.rule === 'window' ? 'Within (ms)' : 'Forget after (ms)'} value={action.within_ms} integer min={1}
          optional={action.rule !== 'window'} placeholder="never" testId="flow-within"
          onChange={(within_ms) => onChange(compact({ ...action, within_ms }), 'within_ms')} /></div>
      </div>
      <Checkbox label="Only the same value (the same command, file…)" checked={same !== undefined} testId="flow-use-same"
        onChange={(on) => onChange(compact({ ...action, same: on ? { earlier: 'payload.command', now: 'payload.command' } : undefined }), 'same')} />
      {same && (
        <div className="row">
          <div className="grow"><Field label="Earlier event's value"><PathInput value={same.earlier} testId="flow-same-earlier" ariaLabel="Earlier event's path"
            onChange={(earlier) => onChange({ ...action, same: { ...same, earlier } }, 'same.earlier')} /></Field></div>
          <div className="grow"><Field label="This event's value"><PathInput value={same.now} testId="flow-same-now" ariaLabel="This event's path"
            onChange={(now) => onChange({ ...action, same: { ...same, now } }, 'same.now')} /></Field></div>
        </div>
      )}
      <SelectField label="When it fires" value={action.decision} options={DECISIONS} testId="flow-decision"
        onChange={(decision) => onChange({ ...action, decision }, 'decision')} />
      <TextField label="Reason (optional)" mono multiline value={action.reason ?? ''} testId="flow-reason"
        hint="Default: the handler's name. The earlier step that set the rule off is added to it."
        onChange={(reason) => onChange(compact({ ...action, reason: reason || undefined }), 'reason')} />
    </div>
  );
}
