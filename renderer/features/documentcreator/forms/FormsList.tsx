import { useState } from 'react';
import type { OnlineFormSummary } from '#shared/api/onlineforms.ts';
import { useOnlineFormsQuery } from '../../../api/onlineForms.ts';
import { formStatusLabels, formsTab as text } from '../../../i18n/es-onlineforms.ts';
import { Button, EmptyState, IconForm, IconPlus } from '../../../ui/index.ts';
import { NewFormDialog } from './NewFormDialog.tsx';
import { formatDateTime } from './formDates.ts';

export interface FormsListProps {
  onOpen: (id: string) => void;
}

export function StatusChip({ status }: { status: OnlineFormSummary['status'] }) {
  return <span className={`ui-chip forms-status forms-status--${status}`}>{formStatusLabels[status]}</span>;
}

/** The forms the advisor owns or that are shared with them, newest change first. */
export function FormsList({ onOpen }: FormsListProps) {
  const forms = useOnlineFormsQuery();
  const [creating, setCreating] = useState(false);

  return (
    <section className="forms-list" aria-labelledby="forms-list-title">
      <div className="forms-list__head">
        <div>
          <h2 id="forms-list-title" className="forms-list__title">{text.title}</h2>
          <p className="ui-muted">{text.subtitle}</p>
        </div>
        <Button icon={<IconPlus size={18} />} onClick={() => setCreating(true)}>{text.newForm}</Button>
      </div>
      {forms.isError ? (
        <div className="forms-error" role="alert">
          <p>{text.loadFailed}</p>
          <Button variant="secondary" onClick={() => void forms.refetch()}>{text.retry}</Button>
        </div>
      ) : forms.data === undefined ? (
        <div className="forms-skeleton" role="status" aria-label={text.loading}>
          {Array.from({ length: 4 }, (_, index) => <div key={index} className="forms-skeleton__row" />)}
        </div>
      ) : forms.data.length === 0 ? (
        <EmptyState headingLevel={3} icon={<IconForm />} title={text.empty} text={text.emptyText} action={<Button onClick={() => setCreating(true)}>{text.newForm}</Button>} />
      ) : (
        <div className="ui-table-wrap">
          <table className="ui-table forms-table">
            <caption className="ui-visually-hidden">{text.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{text.columns.title}</th>
                <th scope="col">{text.columns.template}</th>
                <th scope="col">{text.columns.status}</th>
                <th scope="col">{text.columns.submissions}</th>
                <th scope="col">{text.columns.last}</th>
                <th scope="col">{text.columns.owner}</th>
                <th scope="col"><span className="ui-visually-hidden">{text.columns.actions}</span></th>
              </tr>
            </thead>
            <tbody>
              {forms.data.map((form) => (
                <tr key={form.id} className="forms-table__row">
                  <td className="forms-table__title">
                    <button type="button" className="forms-link" onClick={() => onOpen(form.id)}>{form.title}</button>
                  </td>
                  <td data-label={text.columns.template}>{form.templateName}</td>
                  <td data-label={text.columns.status}><StatusChip status={form.status} /></td>
                  <td data-label={text.columns.submissions}>{form.submissions}</td>
                  <td data-label={text.columns.last}>
                    {form.lastSubmissionAt === null ? <span className="ui-muted">{text.never}</span> : <time dateTime={form.lastSubmissionAt}>{formatDateTime(form.lastSubmissionAt)}</time>}
                  </td>
                  <td data-label={text.columns.owner}>
                    {form.access === 'owner' ? text.access.owner : <>{form.ownerName} <span className="ui-muted">· {text.access[form.access]}</span></>}
                  </td>
                  <td className="forms-table__actions">
                    <Button variant="secondary" aria-label={text.openLabel(form.title)} onClick={() => onOpen(form.id)}>{text.open}</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NewFormDialog open={creating} onClose={() => setCreating(false)} onCreated={(id) => { setCreating(false); onOpen(id); }} />
    </section>
  );
}
