import { memo } from 'react';
import { BaseEdge, getSmoothStepPath, type EdgeProps } from '@xyflow/react';
import type { HookFlowEdge } from '../model/pipelineToFlow.ts';
import { roundedPath } from '../model/routeWires.ts';

/**
 * A wire drawn along the route `pipelineToFlow` found around the other nodes (web/model/routeWires.ts),
 * from the handle React Flow placed to the handle it enters. `data-routed="no"` marks a wire that had no
 * way around (nodes packed too tight) and is drawn the plain way.
 */
export const RoutedEdge = memo(function RoutedEdge(props: EdgeProps<HookFlowEdge>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, markerEnd, style, interactionWidth } = props;
  const points = data?.points;
  let path: string;
  if (points && points.length >= 2) {
    const inner = points.slice(1, -1);
    path = roundedPath([{ x: sourceX, y: sourceY }, ...inner, { x: targetX, y: targetY }]);
  } else {
    [path] = getSmoothStepPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  }
  return <BaseEdge path={path} {...(markerEnd ? { markerEnd } : {})} {...(style ? { style } : {})} {...(interactionWidth !== undefined ? { interactionWidth } : {})} data-routed={points ? 'yes' : 'no'} />;
});

export const EDGE_TYPES = { routed: RoutedEdge };
