import type { Pipeline } from '../../../engine/app.ts';
import { nodeName } from '../../model/nodeName.ts';
import { useApp } from '../../store/appStore.ts';
import { HANDLER_TRIGGER_LABEL, type Breakpoint, type HandlerTrigger, type TriggerChoice } from '../model/breakpoints.ts';
import { DECISION_FILTERS } from '../model/timelineFilter.ts';

type Kind = Breakpoint['kind'];

const KINDS: { value: Kind; label: string }[] = [
  { value: 'decision', label: 'the decision is' },
  { value: 'handler', label: 'a handler' },
  { value: 'matcher', label: 'a matcher matches' },
  { value: 'event_type', label: 'the event type is' },
  { value: 'condition', label: 'a condition holds' },
];

/**
 * What a trigger of `kind` can be: the decisions, the pipeline's handlers or matchers, the trace's event types.
 * `keep` (the value a breakpoint has now) stays offered when it is no longer there, named as such, so editing
 * a breakpoint never changes its trigger behind the person's back.
 */
function triggerOptions(kind: Kind, doc: Pipeline | null, types: readonly string[], keep: string | null): TriggerOption[] {
  const nodes = doc?.nodes ?? [];
  const options =
    kind === 'decision' ? DECISION_FILTERS.map((d) => ({ value: d.value, label: d.label }))
      : kind === 'handler' || kind === 'matcher' ? nodes.filter((n) => n.kind === kind).map((n) => ({ value: n.id, label: nodeName(n) }))
        : kind === 'event_type' ? types.map((t) => ({ value: t, label: t }))
          : [];
  if (keep && kind !== 'condition' && !options.some((o) => o.value === keep)) {
    options.unshift({ value: keep, label: `${keep} (${kind === 'event_type' ? 'not in this trace' : 'not in the pipeline'})` });
  }
  return options;
}

export type TriggerOption = { value: string; label: string };

/**
 * The options of a trigger's kind in the open pipeline and trace, and the trigger as the fields show it: the
 * chosen value while it is offered, else the first one offered ('' when none is).
 */
export function useTrigger(t: TriggerChoice, keep: string | null = null): { shown: TriggerChoice; options: TriggerOption[] } {
  const doc = useApp((s) => s.doc);
  const types = useApp((s) => s.trace?.event_types);
  const options = triggerOptions(t.kind, doc, (types ?? []).map((x) => x.type), t.kind === 'condition' ? null : keep);
  const value = t.kind === 'condition' || options.some((o) => o.value === t.value) ? t.value : options[0]?.value ?? '';
  return { shown: { ...t, value }, options };
}

/**
 * "Stop when …": the kind of trigger, its value and, for a handler, whether it fires, blocks or rewrites. One set
 * of fields for adding a breakpoint and for editing one's trigger (`useTrigger` gives what they show).
 * `testId` prefixes the fields' test ids (bp → bp-kind, bp-value, bp-on).
 */
export function TriggerFields({ value, options, onChange, testId }: { value: TriggerChoice; options: readonly TriggerOption[]; onChange: (t: TriggerChoice) => void; testId: string }) {
  return (
    <>
      <select className="select" style={{ width: 150 }} value={value.kind} aria-label="Breakpoint kind" data-testid={`${testId}-kind`}
        onChange={(e) => onChange({ ...value, kind: e.target.value as Kind, value: '' })}>
        {KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
      </select>
      {value.kind !== 'condition' && (
        <select className="select grow" value={value.value} aria-label="Breakpoint value" data-testid={`${testId}-value`} onChange={(e) => onChange({ ...value, value: e.target.value })}>
          {options.length === 0 && <option value="">(none to choose)</option>}
          {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      )}
      {value.kind === 'handler' && (
        <select className="select" style={{ width: 150 }} value={value.on} aria-label="When the handler" data-testid={`${testId}-on`} onChange={(e) => onChange({ ...value, on: e.target.value as HandlerTrigger })}>
          {(Object.keys(HANDLER_TRIGGER_LABEL) as HandlerTrigger[]).map((t) => <option key={t} value={t}>{HANDLER_TRIGGER_LABEL[t]}</option>)}
        </select>
      )}
      {value.kind === 'condition' && <span className="grow dbg-muted">over the event and the state before it</span>}
    </>
  );
}
