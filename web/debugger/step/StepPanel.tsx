import { Inspector } from '../../inspector/Inspector.tsx';
import { useApp } from '../../store/appStore.ts';
import { StepView } from './StepView.tsx';
import { onTablistKeyDown } from '../../ui/tablistKeys.ts';

/**
 * The right-hand panel: the current step explained, or the editor's inspector for the selected node, so a
 * matcher can be fixed while the trace is loaded (every edit re-runs the replay).
 */
export function StepPanel() {
  const tab = useApp((s) => s.rightTab);
  const setTab = (rightTab: 'step' | 'edit') => useApp.getState().showRightTab(rightTab);
  return (
    <div className="dbg-step-panel">
      <div className="tabs" role="tablist" onKeyDown={onTablistKeyDown}>
        <button role="tab" aria-selected={tab === 'step'} onClick={() => setTab('step')} data-testid="tab-step">Step</button>
        <button role="tab" aria-selected={tab === 'edit'} onClick={() => setTab('edit')} data-testid="tab-edit-node">Edit node</button>
      </div>
      {tab === 'step' ? <StepView /> : <Inspector />}
    </div>
  );
}
