import { useSearchParams } from 'react-router-dom';
import { areas } from '../../i18n/es-screens.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { PageHeader } from '../../ui/index.ts';
import { Tabs } from '../../ui/Tabs.tsx';
import type { Choice } from '../../ui/Tabs.tsx';
import { SiltraButton } from './FieDesktopActions.tsx';
import { FieDocuments } from './FieDocuments.tsx';
import { FieReconciliation } from './FieReconciliation.tsx';
import { FieUpload } from './FieUpload.tsx';
import { readView, writeView } from './fieView.ts';
import type { FieTab, FieView } from './fieView.ts';
import './fie.css';

const tabs: readonly Choice<FieTab>[] = [
  { value: 'list', label: text.views.list },
  { value: 'reconciliation', label: text.views.reconciliation },
];

/**
 * /fie, the FIE processor: upload FIE files (or fetch them from SILTRA on the desktop), review their
 * entries with filters kept in the address, export or sync the chosen ones to A3, and the
 * reconciliation of open bajas with A3.
 */
export default function FiePage() {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  // Typing and ticking are not navigation: each change replaces the address instead of adding to history.
  const change = (next: Partial<FieView>) => setParams((current) => writeView(current, next), { replace: true });

  return (
    <main className="ui-page fie-page">
      <PageHeader title={areas.fie.title} subtitle={areas.fie.summary} actions={<SiltraButton />} />
      <Tabs label={text.views.label} tabs={tabs} value={view.tab} onChange={(tab) => change({ tab })}>
        {view.tab === 'list' ? (
          <div className="fie-page__list">
            <FieUpload />
            <FieDocuments view={view} onChange={change} />
          </div>
        ) : (
          <FieReconciliation />
        )}
      </Tabs>
    </main>
  );
}
