import { Inspector } from '../../inspector/Inspector.tsx';
import { useApp } from '../../store/appStore.ts';
import { StepView } from './StepView.tsx';
import { Tab, TabList } from '../../ui/Tabs.tsx';

/**
 * The right-hand panel: the current step explained, or the editor's inspector for the selected node, so a
 * matcher can be fixed while the trace is loaded (every edit re-runs the replay).
 */
export function StepPanel() {
  const tab = useApp((s) => s.rightTab);
  const setTab = (rightTab: 'step' | 'edit') => useApp.getState().showRightTab(rightTab);
  return (
    <div className="dbg-step-panel">
      <TabList label="Step or node">
        <Tab selected={tab === 'step'} onSelect={() => setTab('step')} testId="tab-step">Step</Tab>
        <Tab selected={tab === 'edit'} onSelect={() => setTab('edit')} testId="tab-edit-node">Edit node</Tab>
      </TabList>
      {tab === 'step' ? <StepView /> : <Inspector />}
    </div>
  );
}
