import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Submission } from '#shared/api/altas.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, ErrorBanner, PageHeader, Spinner } from '../../ui/index.ts';
import { A3SyncButton, RedSyncButton } from './AltasDesktopActions.tsx';
import { useAltasCompaniesQuery, useAltasFormDefinitionQuery, useAltasSubmissionsQuery } from './altasApi.ts';
import { byCompany, companyLabel, splitSubmissions } from './altasModel.ts';
import { FormConfigModal } from './FormConfigModal.tsx';
import { useDesktopPending } from './useDesktopPending.ts';
import { SubmissionList } from './SubmissionList.tsx';
import { SubmissionModal } from './SubmissionModal.tsx';

/** Which registration the modal shows: a saved one, a new one, or none. */
type Editing = { submission: Submission | null } | null;

/** 'Altas | Historial y Pendientes': the actions, the company filter and the two lists. */
export function AltasDashboard({ onOpenCompanies }: { onOpenCompanies: () => void }) {
  const filterId = useId();
  const submissions = useAltasSubmissionsQuery();
  const companies = useAltasCompaniesQuery();
  const definition = useAltasFormDefinitionQuery();
  const [companyId, setCompanyId] = useState('');
  const [selection, setSelection] = useState<Set<string>>(() => new Set());
  const [editing, setEditing] = useState<Editing>(null);
  const [formConfigOpen, setFormConfigOpen] = useState(false);
  const desktopPending = useDesktopPending(submissions.fulfilledTimeStamp);
  const [params, setParams] = useSearchParams();
  const linked = params.get('alta');

  // The advisors' mail of a new alta links to /altasybajas?alta=<id>: its 'Ver Alta' opens once the list is here.
  useEffect(() => {
    if (linked === null || !submissions.data || !definition.data) return;
    const found = submissions.data.find((item) => item._id === linked && !item.removed);
    if (found) setEditing({ submission: found });
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete('alta');
      return next;
    }, { replace: true });
  }, [linked, submissions.data, definition.data, setParams]);

  const { pending, history } = splitSubmissions(byCompany(submissions.data ?? [], companyId));
  // Only what is still on screen counts as selected (a filter or a refetch may hide some).
  const shownIds = new Set([...pending, ...history].map((item) => item._id));
  const selectedIds = [...selection].filter((id) => shownIds.has(id));
  // Sistema RED takes only what it does not have yet; A3 takes any registration (the server says which are not ready).
  const selectedPendingIds = pending.filter((item) => selection.has(item._id)).map((item) => item._id);

  // What a robot answered for leaves the selection: registered altas move list, and the next action starts clean.
  const unselect = (ids: readonly string[]) => setSelection((current) => new Set([...current].filter((id) => !ids.includes(id))));

  // The Modal hands focus back to the button that opened it when it closes.
  const openSubmission = (submission: Submission | null) => setEditing({ submission });

  return (
    <main className="ui-page altas-page">
      <PageHeader
        title={text.dashboard.title}
        subtitle={text.dashboard.subtitle}
        actions={
          <>
            <Button variant="secondary" onClick={onOpenCompanies}>{text.dashboard.openCompanies}</Button>
            <Button variant="secondary" onClick={() => setFormConfigOpen(true)}>{text.dashboard.openFormConfig}</Button>
          </>
        }
      />
      <div className="altas-toolbar">
        <label className="altas-toolbar__filter" htmlFor={filterId}>
          <span>{text.dashboard.companyFilter}</span>
          <select id={filterId} className="ui-input" value={companyId} onChange={(event) => setCompanyId(event.target.value)}>
            <option value="">{text.dashboard.allCompanies}</option>
            {(companies.data ?? []).map((company) => <option key={company._id} value={company._id}>{companyLabel(company)}</option>)}
          </select>
        </label>
        <div className="altas-toolbar__actions">
          <Button variant="secondary" loading={submissions.isFetching} onClick={() => void submissions.refetch()}>{text.dashboard.refresh}</Button>
          <Button variant="secondary" disabled={!definition.data} onClick={() => openSubmission(null)}>{text.dashboard.newAlta}</Button>
          <A3SyncButton selectedIds={selectedIds} onDone={unselect} />
          <RedSyncButton selectedIds={selectedPendingIds} onDone={unselect} />
        </div>
      </div>
      {desktopPending && (
        <p className="ui-muted altas-toolbar__pending" role="status">
          {text.dashboard.desktopPending(desktopPending.red.length, desktopPending.a3.length)}
        </p>
      )}
      {submissions.isError && <ErrorBanner data={{ hasError: true, msg: text.dashboard.loadFailed }} />}
      {companies.isError && <ErrorBanner data={{ hasError: true, msg: text.dashboard.companiesFailed }} />}
      {definition.isError && <ErrorBanner data={{ hasError: true, msg: text.submission.loadFailed }} />}
      {submissions.isLoading ? (
        <div className="altas-loading" role="status">
          <Spinner size="small" decorative />
          <span>{text.dashboard.loading}</span>
        </div>
      ) : (
        <div className="altas-lists">
          <SubmissionList
            title={text.list.pending}
            emptyText={text.list.emptyPending}
            items={pending}
            selection={selection}
            onSelectionChange={setSelection}
            onOpen={openSubmission}
          />
          <SubmissionList
            title={text.list.history}
            emptyText={text.list.emptyHistory}
            items={history}
            selection={selection}
            onSelectionChange={setSelection}
            onOpen={openSubmission}
          />
        </div>
      )}
      {editing && definition.data && (
        <SubmissionModal
          submission={editing.submission}
          companies={companies.data ?? []}
          definition={definition.data}
          onClose={() => setEditing(null)}
        />
      )}
      {formConfigOpen && (
        <FormConfigModal
          onClose={() => setFormConfigOpen(false)}
        />
      )}
    </main>
  );
}
