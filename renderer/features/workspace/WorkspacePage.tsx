import { useSearchParams } from 'react-router-dom';
import { areas } from '../../i18n/es-screens.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { PageHeader } from '../../ui/index.ts';
import { Tabs } from '../../ui/Tabs.tsx';
import { DevicesView } from './DevicesView.tsx';
import { ExpiryRadar } from './ExpiryRadar.tsx';
import './workspace.css';

/** ?vista= values: the radar is deep-linked from the top bar's expiry warning. */
const VIEWS = { devices: 'dispositivos', expiry: 'caducidades' } as const;
type View = (typeof VIEWS)[keyof typeof VIEWS];

/** /workspace 'Mis recursos': devices with their certificates and configurations, and the expiry radar. */
export default function WorkspacePage() {
  const [params, setParams] = useSearchParams();
  const view: View = params.get('vista') === VIEWS.expiry ? VIEWS.expiry : VIEWS.devices;

  const choose = (next: View) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next === VIEWS.devices) updated.delete('vista');
        else updated.set('vista', next);
        return updated;
      },
      { replace: true },
    );

  return (
    <main className="ui-page">
      <PageHeader title={areas.workspace.title} subtitle={areas.workspace.summary} />
      <Tabs
        label={workspace.tabsLabel}
        tabs={[
          { value: VIEWS.devices, label: workspace.tabs.devices },
          { value: VIEWS.expiry, label: workspace.tabs.expiry },
        ]}
        value={view}
        onChange={choose}
      >
        {view === VIEWS.devices ? <DevicesView /> : <ExpiryRadar />}
      </Tabs>
    </main>
  );
}
