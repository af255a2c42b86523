import { getBezierPath, type ConnectionLineComponentProps } from '@xyflow/react';
import { checkWire } from '../../engine/app.ts';
import { useApp, selectDoc } from '../store/appStore.ts';
import type { HookFlowNode } from '../model/pipelineToFlow.ts';

/**
 * The wire being drawn. Over a handle that would make an invalid wire it turns red and says why, using
 * the engine's wire rule [V3], so the refusal is visible before the mouse is released.
 */
export function ConnectionLine(props: ConnectionLineComponentProps<HookFlowNode>) {
  const { fromX, fromY, toX, toY, fromPosition, toPosition, connectionStatus, fromNode, toNode, fromHandle } = props;
  const doc = useApp(selectDoc);
  const [path] = getBezierPath({ sourceX: fromX, sourceY: fromY, sourcePosition: fromPosition, targetX: toX, targetY: toY, targetPosition: toPosition });
  let reason: string | null = null;
  if (doc && toNode && connectionStatus === 'invalid') {
    const wire = fromHandle.type === 'source' ? { from: fromNode.id, to: toNode.id } : { from: toNode.id, to: fromNode.id };
    reason = checkWire(doc, wire)?.message ?? null;
  }
  const invalid = connectionStatus === 'invalid';
  return (
    <g data-testid={invalid ? 'connection-invalid' : 'connection-line'}>
      <path d={path} fill="none" className={invalid ? 'connection-invalid react-flow__connection-path' : 'react-flow__connection-path'} />
      {reason && (
        <text x={toX + 14} y={toY - 14} className="connection-hint" data-testid="connection-hint">
          {reason}
        </text>
      )}
    </g>
  );
}
