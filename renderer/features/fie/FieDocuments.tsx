import { useMemo, useState } from 'react';
import type { FieDocumentView, FieListQuery } from '#shared/api/fie.ts';
import { filterFieDocuments } from '#shared/fie/list-filter.ts';
import { DELETE_FIE_CONFIRM } from '#shared/fie/messages.ts';
import { useSession, useToast } from '../../app/hooks.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { Button, EmptyState, IconFile, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useDeleteFieMutation, useFieDocumentsQuery } from './fieApi.ts';
import { FieFilters } from './FieFilters.tsx';
import { FieList } from './FieList.tsx';
import { documentName, flattenRows, newestFirst, partCount, selectableIds } from './fieRows.ts';
import { SyncA3Button } from './FieDesktopActions.tsx';
import { saveBlob } from '../../ui/saveBlob.ts';
import { FieTransferError, exportA3Workbook } from './fieTransfer.ts';
import { hasFilters, serverQuery, viewQuery } from './fieView.ts';
import type { FieView } from './fieView.ts';

/** A set with one member added or taken out (state sets are replaced, never changed in place). */
function toggled(set: ReadonlySet<string>, id: string, present: boolean): Set<string> {
  const next = new Set(set);
  if (present) next.add(id);
  else next.delete(id);
  return next;
}

/**
 * The documents of the filtered list: filters, the selection bar (export, A3 sync), and the flat
 * virtual list. A document is deleted only after 'Eliminar FIE' is confirmed, and leaves the list
 * only when the server has answered 204; until then it shows as busy.
 */
export function FieDocuments({ view, onChange }: { view: FieView; onChange: (change: Partial<FieView>) => void }) {
  const query = viewQuery(view);
  const queryKey = JSON.stringify(query);
  // The server answers the date range; the search, types and A3 state filter the list already here, in
  // milliseconds, with the server's own rule (shared/fie/list-filter.ts) and no round trip.
  const { data, isLoading, isFetching, isError, refetch } = useFieDocumentsQuery(serverQuery(query));
  const [deleteFie] = useDeleteFieMutation();
  const toast = useToast();
  const language = useSession().user?.language ?? 'es';

  // Documents open by default while filtering (the matching entries are what was asked for), closed otherwise;
  // the ones toggled by hand flip that, until the filters change.
  const filtering = hasFilters(view);
  const [toggledDocuments, setToggledDocuments] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: queryKey, ids: new Set() });
  if (toggledDocuments.key !== queryKey) setToggledDocuments({ key: queryKey, ids: new Set() });
  const isExpanded = (id: string) => toggledDocuments.ids.has(id) !== filtering;

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(new Set());
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<FieDocumentView | null>(null);
  const [exporting, setExporting] = useState(false);

  const documents = useMemo(
    () => newestFirst(filterFieDocuments(data ?? [], JSON.parse(queryKey) as FieListQuery).filter((document) => !removed.has(document._id))),
    [data, queryKey, removed],
  );
  const rows = flattenRows(documents, isExpanded);
  const visibleIds = useMemo(() => selectableIds(documents), [documents]);
  // Only entries still on screen count as chosen: a filter change drops the rest from what is exported.
  const chosen = useMemo(() => visibleIds.filter((id) => selected.has(id)), [visibleIds, selected]);
  const allChosen = visibleIds.length > 0 && chosen.length === visibleIds.length;

  const remove = async () => {
    const document = confirming;
    if (!document) return;
    setConfirming(null);
    setDeleting((current) => toggled(current, document._id, true));
    try {
      await deleteFie(document._id).unwrap();
      setRemoved((current) => toggled(current, document._id, true));
      toast.success(text.list.deleted);
    } catch {
      toast.error(text.list.deleteFailed);
    } finally {
      setDeleting((current) => toggled(current, document._id, false));
    }
  };

  const exportSelection = async () => {
    setExporting(true);
    try {
      saveBlob(await exportA3Workbook(chosen, language), text.actions.exportFile);
    } catch (error) {
      toast.error(error instanceof FieTransferError ? error.message : text.actions.exportFailed);
    } finally {
      setExporting(false);
    }
  };

  const empty = !isLoading && !isError && documents.length === 0;
  return (
    <>
      <FieFilters view={view} onChange={onChange} />
      <section className="ui-card fie-documents" aria-label={text.list.caption} aria-busy={isFetching || undefined}>
        <div className="fie-toolbar">
          <label className="fie-toolbar__all">
            <input
              type="checkbox"
              ref={(box) => {
                // Some but not all chosen: the box says so (a DOM property, not an attribute).
                if (box) box.indeterminate = chosen.length > 0 && !allChosen;
              }}
              checked={allChosen}
              disabled={visibleIds.length === 0}
              onChange={(event) => setSelected(event.target.checked ? new Set(visibleIds) : new Set())}
            />
            <span>{text.list.selectAll}</span>
          </label>
          <span className="ui-muted fie-toolbar__count" aria-live="polite">
            {chosen.length > 0 ? text.list.selected(chosen.length) : data ? text.list.partsInFiles(partCount(documents), documents.length) : ''}
          </span>
          <div className="fie-toolbar__actions">
            <Button variant="secondary" loading={exporting} disabled={chosen.length === 0 || exporting} onClick={() => void exportSelection()}>
              {text.actions.exportA3}
            </Button>
            <SyncA3Button entryIds={chosen} />
          </div>
        </div>
        {isLoading && <Spinner label={text.list.loading} />}
        {isError && (
          <div role="alert" className="ui-inline-error fie-documents__error">
            <p>{text.list.failed}</p>
            <Button variant="ghost" onClick={() => void refetch()}>{text.list.retry}</Button>
          </div>
        )}
        {empty &&
          (filtering ? (
            <EmptyState title={text.list.noMatchesTitle} text={text.list.noMatchesText} headingLevel={3} />
          ) : (
            <EmptyState icon={<IconFile size={32} />} title={text.list.emptyTitle} text={text.list.emptyText} headingLevel={3} />
          ))}
        {documents.length > 0 && (
          <FieList
            rows={rows}
            onToggle={(id) => setToggledDocuments((current) => ({ key: current.key, ids: toggled(current.ids, id, !current.ids.has(id)) }))}
            selected={selected}
            onSelect={(id, on) => setSelected((current) => toggled(current, id, on))}
            deleting={deleting}
            onDelete={setConfirming}
            scrollKey={queryKey}
          />
        )}
      </section>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? text.list.deleteTitle(DELETE_FIE_CONFIRM.title, documentName(confirming)) : DELETE_FIE_CONFIRM.title}
        text={DELETE_FIE_CONFIRM.text}
        confirmLabel={text.list.deleteConfirm}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(null)}
      />
    </>
  );
}
