import { type MatcherNode, MATCHER_TEMPLATE } from '../../engine/app.ts';
import { Checkbox, ListField, TextField } from './fields.tsx';
import { ConditionEditor } from './ConditionEditor.tsx';
import { CodeField } from '../code/CodeField.tsx';
import { compact, useUpdateNode } from './useUpdateNode.ts';

/** Matcher node: label, the CrewAI-style shorthands [M7], the condition (builder + JSON), or a code predicate. */
export function MatcherForm({ node }: { node: MatcherNode }) {
  const update = useUpdateNode(node);
  const useCode = node.code !== undefined;
  return (
    <div>
      <TextField label="Label" value={node.label ?? ''} placeholder={node.id} testId="matcher-label"
        onChange={(label) => update(compact({ ...node, label: label || undefined }), 'label')} />
      <ListField label="Tools (shorthand)" value={node.tools} placeholder="Bash, run_shell" testId="matcher-tools"
        hint="Same as payload.tool_name in [...]; AND-ed with the condition." onChange={(tools) => update(compact({ ...node, tools }), 'tools')} />
      <ListField label="Agents (shorthand)" value={node.agents} placeholder="agent-1" testId="matcher-agents"
        hint="Same as event.agent_id in [...]." onChange={(agents) => update(compact({ ...node, agents }), 'agents')} />
      <div style={{ margin: '4px 0 12px' }}>
        <Checkbox label="Code predicate instead of a condition" checked={useCode} testId="matcher-use-code"
          onChange={(on) =>
            update(
              compact({ ...node, code: on ? { language: 'ts' as const, source: MATCHER_TEMPLATE } : undefined, when: on ? undefined : (node.when ?? { 'payload.tool_name': { exists: true } }) }),
              'code', on ? 'Use a code predicate' : 'Use a condition',
            )
          } />
      </div>
      {useCode && node.code ? (
        <CodeField nodeId={node.id} spec={node.code} onChange={(code) => update({ ...node, code }, 'code-source')} />
      ) : (
        <ConditionEditor value={node.when ?? {}} onChange={(when) => update({ ...node, when }, 'when', 'Edit condition')} />
      )}
    </div>
  );
}
