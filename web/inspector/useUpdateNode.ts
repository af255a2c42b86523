import { useCallback } from 'react';
import type { PipelineNode } from '../../engine/app.ts';
import { useApp } from '../store/appStore.ts';

/**
 * Returns `update(next, field)`: replaces the node through one `updateNode` change. Typing in one field of
 * one node merges into one undo step (coalesce key node + field).
 */
export function useUpdateNode<T extends PipelineNode>(node: T): (next: T, field: string, label?: string) => void {
  const apply = useApp((s) => s.apply);
  return useCallback(
    (next: T, field: string, label?: string) => apply([{ type: 'updateNode', node: next }], label ?? `Edit ${field}`, `${node.id}:${field}`),
    [apply, node.id],
  );
}

/** Copy of an object without the keys whose value is undefined (optional fields left out, not set to undefined). */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
