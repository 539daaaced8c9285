import { useEffect, useState } from 'react';
import { DOCUMENTS_PAGE_SIZE } from '#shared/api/documents.ts';
import type { GeneratedDocument } from '#shared/api/documents.ts';
import { formatBytes } from '#shared/files/index.ts';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import type { HttpError } from '../../api/baseApi.ts';
import { documentFileUrl, useDeleteGeneratedDocumentMutation, useDocTemplatesQuery, useGeneratedDocumentsQuery } from '../../api/documents.ts';
import { useToast } from '../../app/hooks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { Button, EmptyState, IconFile, SearchInput, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Pagination } from '../../ui/Pagination.tsx';
import type { CreatorView } from './view.ts';

/** How often the list asks again while a document is being made. */
export const POLL_MS = 2000;

export interface DocumentsTabProps {
  view: CreatorView;
  change: (partial: Partial<CreatorView>, options?: { replace?: boolean }) => void;
}

const status = (document: GeneratedDocument) => text.documentsTab.status[document.status];

/** Documentos: the generated documents, newest first, paged, searchable, filtered by template; polled while any is being made. */
export function DocumentsTab({ view, change }: DocumentsTabProps) {
  const [polling, setPolling] = useState(false);
  const list = useGeneratedDocumentsQuery(
    { q: view.dq || undefined, templateId: view.dtemplate ?? undefined, page: view.page },
    { pollingInterval: polling ? POLL_MS : 0, refetchOnMountOrArgChange: true },
  );
  const templates = useDocTemplatesQuery({});
  const [removing, setRemoving] = useState<GeneratedDocument | null>(null);
  const [remove, removal] = useDeleteGeneratedDocumentMutation();
  const toast = useToast();
  const anyGenerating = list.data?.items.some((item) => item.status === 'generating') ?? false;
  useEffect(() => setPolling(anyGenerating), [anyGenerating]);

  const filtered = view.dq !== '' || view.dtemplate !== null;
  const pageCount = list.data ? Math.max(1, Math.ceil(list.data.total / (list.data.pageSize || DOCUMENTS_PAGE_SIZE))) : 1;
  const cols = text.documentsTab.columns;

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove(removing.id).unwrap();
      toast.success(text.documentsTab.removed);
    } catch (error) {
      toast.error((error as HttpError).message || text.documentsTab.removeFailed);
    }
    setRemoving(null);
  };

  return (
    <div className="dc-documents">
      <div className="dc-toolbar">
        <SearchInput label={text.documentsTab.search} value={view.dq} debounceMs={300} onSearch={(dq) => change({ dq }, { replace: true })} />
        <label className="dc-field dc-field--inline">
          <span>{text.documentsTab.templateFilter}</span>
          <select className="ui-input" value={view.dtemplate ?? ''} onChange={(event) => change({ dtemplate: event.target.value || null }, { replace: true })}>
            <option value="">{text.documentsTab.allTemplates}</option>
            {(templates.data ?? []).map((template) => <option key={template.id} value={template.id}>{template.name}</option>)}
          </select>
        </label>
      </div>
      {list.isError ? (
        <div className="dc-state">
          <p role="alert">{text.documentsTab.loadFailed}</p>
          <Button variant="secondary" onClick={() => void list.refetch()}>{text.retry}</Button>
        </div>
      ) : list.data === undefined ? (
        <p className="dc-state" role="status"><Spinner size="small" decorative /> {text.documentsTab.loading}</p>
      ) : list.data.items.length === 0 ? (
        filtered ? (
          <EmptyState headingLevel={3} title={text.documentsTab.noResults} text={text.documentsTab.noResultsText} />
        ) : (
          <EmptyState
            headingLevel={3}
            icon={<IconFile />}
            title={text.documentsTab.emptyTitle}
            text={text.documentsTab.emptyText}
            action={<Button onClick={() => change({ tab: 'plantillas', template: null })}>{text.documentsTab.toTemplates}</Button>}
          />
        )
      ) : (
        <>
          <p className="ui-muted dc-small" aria-live="polite">{text.documentsTab.total(list.data.total)}</p>
          <div className="dc-table-wrap">
            <table className="dc-table">
              <caption className="ui-visually-hidden">{text.documentsTab.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{cols.name}</th>
                  <th scope="col">{cols.company}</th>
                  <th scope="col">{cols.template}</th>
                  <th scope="col">{cols.date}</th>
                  <th scope="col">{cols.size}</th>
                  <th scope="col">{cols.status}</th>
                  <th scope="col">{cols.actions}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((document) => (
                  <tr key={document.id}>
                    <th scope="row" data-label={cols.name} className="dc-table__name">{document.name}</th>
                    <td data-label={cols.company}>{document.company ?? text.documentsTab.noCompany}</td>
                    <td data-label={cols.template}>
                      {document.templateName ?? text.documentsTab.noTemplate}
                      {document.submissionId !== null && <span className="ui-chip dc-chip-small">{text.documentsTab.fromForm}</span>}
                    </td>
                    <td data-label={cols.date}>{formatMadridDateTime(new Date(document.createdAt))}</td>
                    <td data-label={cols.size} className="dc-small">
                      {document.pdfSize !== null && document.docxSize !== null ? text.documentsTab.sizes(formatBytes(document.pdfSize), formatBytes(document.docxSize)) : '—'}
                    </td>
                    <td data-label={cols.status}>
                      <span className={`ui-chip ${document.status === 'ready' ? 'ui-chip--success' : document.status === 'failed' ? 'ui-chip--danger' : 'ui-chip--notice'}`}>
                        {document.status === 'generating' && <Spinner size="small" decorative />} {status(document)}
                      </span>
                      {document.status === 'failed' && document.error && <span className="ui-inline-error dc-small dc-block">{document.error}</span>}
                    </td>
                    <td data-label={cols.actions}>
                      <div className="dc-row-actions">
                        {document.status === 'ready' && (
                          <>
                            <a className="ui-button ui-button--secondary" href={documentFileUrl(document.id, 'pdf')} download aria-label={text.documentsTab.download(text.documentsTab.pdf, document.name)}>
                              {text.documentsTab.pdf}
                            </a>
                            <a className="ui-button ui-button--secondary" href={documentFileUrl(document.id, 'docx')} download aria-label={text.documentsTab.download(text.documentsTab.docx, document.name)}>
                              {text.documentsTab.docx}
                            </a>
                          </>
                        )}
                        <Button variant="ghost" className="dc-danger" aria-label={text.documentsTab.remove(document.name)} onClick={() => setRemoving(document)}>
                          {text.documentsTab.removeConfirm}
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={view.page - 1} pageCount={pageCount} onPageChange={(page) => change({ page: page + 1 })} />
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={text.documentsTab.removeTitle}
        text={removing ? text.documentsTab.removeText(removing.name) : ''}
        confirmLabel={text.documentsTab.removeConfirm}
        busy={removal.isLoading}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      />
    </div>
  );
}
