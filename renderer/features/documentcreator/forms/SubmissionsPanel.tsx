import { useEffect, useState } from 'react';
import { SUBMISSIONS_PAGE_SIZE } from '#shared/api/onlineforms.ts';
import type { FormSubmission } from '#shared/api/onlineforms.ts';
import { formatFieldValue } from '#shared/documents/form-fields.ts';
import type { OnlineFormField } from '#shared/documents/form-fields.ts';
import type { HttpError } from '../../../api/baseApi.ts';
import {
  submissionPdfUrl, submissionSignatureUrl, submissionsExportUrl, useDeleteFormSubmissionMutation, useFormSubmissionsQuery,
} from '../../../api/onlineForms.ts';
import { useToast } from '../../../app/hooks.ts';
import { formsTab } from '../../../i18n/es-onlineforms.ts';
import { Button, EmptyState, SearchInput } from '../../../ui/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { DateRangeFields } from '../../../ui/DateRangeFields.tsx';
import { isBadDayRange } from '../../../ui/dayRange.ts';
import type { DayRange } from '../../../ui/dayRange.ts';
import { Modal } from '../../../ui/Modal.tsx';
import { Pagination } from '../../../ui/Pagination.tsx';
import { formatDateTime } from './formDates.ts';

const text = formsTab.submissions;
/** The table shows the form's first fields; the rest are in the PDF and the export. */
const SHOWN_FIELDS = 3;

export interface SubmissionsPanelProps {
  formId: string;
  formTitle: string;
  fields: readonly OnlineFormField[];
  /** Only the owner and 'edit' access delete answers. */
  canDelete: boolean;
}

/** The form's submissions: search, a date range, pages from the server, PDF, signature, delete and the .xlsx of the same filters. */
export function SubmissionsPanel({ formId, formTitle, fields, canDelete }: SubmissionsPanelProps) {
  const [q, setQ] = useState('');
  const [range, setRange] = useState<DayRange>({ from: '', to: '' });
  const [page, setPage] = useState(1);
  const badRange = isBadDayRange(range);
  // A 'Hasta' before 'Desde' is left out of the query until it is fixed.
  const filters = { q, from: range.from || undefined, to: badRange ? undefined : range.to || undefined };
  // While a PDF is being made the page asks again every few seconds, so 'Descargar PDF' appears by itself.
  const [polling, setPolling] = useState(false);
  const list = useFormSubmissionsQuery({ formId, ...filters, page }, { pollingInterval: polling ? 3_000 : 0 });
  const generating = list.data?.items.some((item) => item.documentStatus === 'generating') ?? false;
  useEffect(() => setPolling(generating), [generating]);
  const [remove, removing] = useDeleteFormSubmissionMutation();
  const toast = useToast();
  const [viewing, setViewing] = useState<FormSubmission | null>(null);
  const [deleting, setDeleting] = useState<FormSubmission | null>(null);
  const shown = fields.slice(0, SHOWN_FIELDS);
  const filtered = q.trim() !== '' || range.from !== '' || range.to !== '';
  const total = list.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / (list.data?.pageSize ?? SUBMISSIONS_PAGE_SIZE)));

  const confirmDelete = async () => {
    if (deleting === null) return;
    try {
      await remove(deleting.id).unwrap();
      toast.success(text.deleted);
      setDeleting(null);
    } catch (failure) {
      toast.error((failure as HttpError).message || formsTab.actions.failed);
    }
  };

  return (
    <section className="ui-card ui-section forms-submissions" aria-labelledby="forms-submissions-title">
      <div className="forms-submissions__head">
        <h3 id="forms-submissions-title" className="ui-section__title">{text.title}</h3>
        <a className="ui-button ui-button--secondary forms-export" href={submissionsExportUrl({ formId, ...filters })} download={`${formTitle}.xlsx`}>
          {text.export}
        </a>
      </div>
      <div className="forms-filters">
        <div className="forms-filters__search">
          <SearchInput label={text.search} placeholder={text.searchPlaceholder} value={q} debounceMs={400} onSearch={(next) => { setQ(next); setPage(1); }} />
        </div>
        <DateRangeFields
          range={range}
          labels={{ from: text.from, to: text.to }}
          errorId="forms-range-error"
          fieldClassName="forms-filters__date"
          onChange={(key, value) => { setRange((current) => ({ ...current, [key]: value })); setPage(1); }}
        />
        {filtered && (
          <Button variant="ghost" onClick={() => { setQ(''); setRange({ from: '', to: '' }); setPage(1); }}>{text.clear}</Button>
        )}
        {badRange && <p id="forms-range-error" className="app-field__error forms-filters__note">{text.badRange}</p>}
      </div>
      {list.isError ? (
        <div className="forms-error" role="alert">
          <p>{text.loadFailed}</p>
          <Button variant="secondary" onClick={() => void list.refetch()}>{formsTab.retry}</Button>
        </div>
      ) : list.data === undefined ? (
        <div className="forms-skeleton" role="status" aria-label={text.loading}>
          {Array.from({ length: 3 }, (_, index) => <div key={index} className="forms-skeleton__row" />)}
        </div>
      ) : (
        <>
          <p className="ui-muted" aria-live="polite">{text.total(total)}</p>
          <div className="ui-table-wrap">
            <table className="ui-table forms-table forms-table--submissions">
              <caption className="ui-visually-hidden">{text.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.date}</th>
                  {shown.map((field) => <th key={field.key} scope="col">{field.label}</th>)}
                  <th scope="col">{text.signer}</th>
                  <th scope="col">{text.document}</th>
                  <th scope="col"><span className="ui-visually-hidden">{text.actions}</span></th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.length === 0 && (
                  <tr>
                    <td colSpan={shown.length + 4} className="ui-table__empty">
                      <EmptyState headingLevel={3} title={filtered ? text.noResults : text.empty} />
                    </td>
                  </tr>
                )}
                {list.data.items.map((submission) => {
                  const when = formatDateTime(submission.createdAt);
                  return (
                    <tr key={submission.id} className="forms-table__row">
                      <td className="forms-table__title"><time dateTime={submission.createdAt}>{when}</time></td>
                      {shown.map((field) => (
                        <td key={field.key} data-label={field.label} className="forms-table__value">{formatFieldValue(field, submission.values[field.key])}</td>
                      ))}
                      <td data-label={text.signer}>{submission.signerName ?? text.noSigner}</td>
                      <td data-label={text.document}>
                        <DocumentCell submission={submission} when={when} />
                      </td>
                      <td className="forms-table__actions">
                        {submission.hasSignature && (
                          <Button variant="secondary" aria-label={text.signatureLabel(when)} onClick={() => setViewing(submission)}>{text.signature}</Button>
                        )}
                        {canDelete && (
                          <Button variant="ghost" aria-label={text.deleteLabel(when)} onClick={() => setDeleting(submission)}>{text.delete}</Button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pagination page={page - 1} pageCount={pageCount} onPageChange={(next) => setPage(next + 1)} />
        </>
      )}
      <Modal
        open={viewing !== null}
        size="small"
        title={text.signatureTitle}
        onClose={() => setViewing(null)}
        footer={
          viewing && (
            <>
              <a className="ui-button ui-button--secondary" href={submissionSignatureUrl(viewing.id)} download>{text.downloadSignature}</a>
              <Button onClick={() => setViewing(null)}>{text.close}</Button>
            </>
          )
        }
      >
        {viewing && <img className="forms-signature" src={submissionSignatureUrl(viewing.id)} alt={text.signatureAlt(viewing.signerName ?? '')} />}
      </Modal>
      <ConfirmDialog
        open={deleting !== null}
        title={text.deleteTitle}
        text={text.deleteText}
        confirmLabel={text.delete}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

function DocumentCell({ submission, when }: { submission: FormSubmission; when: string }) {
  const status = submission.documentStatus;
  if (status === 'ready' && submission.documentId !== null) {
    return (
      <a className="ui-button ui-button--secondary forms-download" href={submissionPdfUrl(submission.documentId)} download aria-label={text.downloadPdfLabel(when)}>
        {text.downloadPdf}
      </a>
    );
  }
  if (status === 'failed') return <span className="ui-chip ui-chip--danger">{text.documentStatus.failed}</span>;
  if (status === 'generating') return <span className="ui-chip ui-chip--notice">{text.documentStatus.generating}</span>;
  return <span className="ui-muted">{text.documentStatus.none}</span>;
}
