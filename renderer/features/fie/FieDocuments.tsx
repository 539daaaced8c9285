import { useMemo, useState } from 'react';
import { DELETE_FIE_CONFIRM } from '#shared/fie/messages.ts';
import { useSession, useToast } from '../../app/hooks.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { Button, EmptyState, IconFile, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useDeleteFieMutation, useFieListInfiniteQuery, useLazyFieMatchingIdsQuery } from './fieApi.ts';
import { FieFilters } from './FieFilters.tsx';
import { FieList } from './FieList.tsx';
import { documentName, flattenRows, listedDocuments, partCount, selectableIds } from './fieRows.ts';
import type { ListedDocument } from './fieRows.ts';
import { SyncA3Button } from './FieDesktopActions.tsx';
import { saveBlob } from '../../ui/saveBlob.ts';
import { FieTransferError, exportA3Workbook } from './fieTransfer.ts';
import { hasFilters, viewQuery } from './fieView.ts';
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
 * virtual list. The server filters and sends the list a page of entries at a time (issue 43, 6): the
 * first page heads every matching document and counts the partes; the next pages come as an open
 * document's last loaded entry scrolls into view. A document is deleted only after 'Eliminar FIE' is
 * confirmed, and leaves the list only when the server has answered 204; until then it shows as busy.
 */
export function FieDocuments({ view, onChange }: { view: FieView; onChange: (change: Partial<FieView>) => void }) {
  const query = viewQuery(view);
  const queryKey = JSON.stringify(query);
  const { data, isLoading, isFetching, isError, refetch, fetchNextPage, hasNextPage, isFetchingNextPage, isFetchNextPageError } = useFieListInfiniteQuery(query);
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
  const [confirming, setConfirming] = useState<ListedDocument | null>(null);
  const [exporting, setExporting] = useState(false);

  const documents = useMemo(() => listedDocuments(data?.pages ?? []).filter((document) => !removed.has(document._id)), [data, removed]);
  const first = data?.pages[0];
  const rows = flattenRows(documents, isExpanded);
  const visibleIds = useMemo(() => selectableIds(documents), [documents]);
  // 'Seleccionar todos los que coinciden' (issue 43, 6): the ids of every match, loaded or not, for these filters.
  const [fetchMatching, { isFetching: selectingMatching }] = useLazyFieMatchingIdsQuery();
  const [matching, setMatching] = useState<{ key: string; ids: readonly string[] } | null>(null);
  const pool = useMemo(() => (matching?.key === queryKey ? [...new Set([...visibleIds, ...matching.ids])] : visibleIds), [visibleIds, matching, queryKey]);
  // Only entries of these filters count as chosen: a filter change drops the rest from what is exported.
  const chosen = useMemo(() => pool.filter((id) => selected.has(id)), [pool, selected]);
  const allChosen = pool.length > 0 && chosen.length === pool.length;
  const loaded = useMemo(() => partCount(documents), [documents]);
  // Some matches are on pages not loaded yet, and not all of them are chosen.
  const canSelectMatching = first !== undefined && loaded < first.total && !(matching?.key === queryKey && allChosen);

  const selectMatching = async () => {
    try {
      const found = await fetchMatching(query).unwrap();
      setMatching({ key: queryKey, ids: found.ids });
      setSelected((current) => new Set([...current, ...found.ids]));
      if (found.total > found.ids.length) toast.info(text.list.matchingCapped(found.ids.length));
    } catch {
      toast.error(text.list.matchingFailed);
    }
  };
  const more = {
    load: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    loading: isFetchingNextPage,
    failed: isFetchNextPageError,
    pages: data?.pages.length ?? 0,
  };

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

  // A next page that failed says so in its own row (FieList's 'more' row), over the entries already shown.
  const failed = isError && !isFetchNextPageError;
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
              disabled={pool.length === 0}
              onChange={(event) => setSelected(event.target.checked ? new Set(pool) : new Set())}
            />
            <span>{text.list.selectAll}</span>
          </label>
          {canSelectMatching && (
            <Button variant="ghost" loading={selectingMatching} disabled={selectingMatching} onClick={() => void selectMatching()}>
              {text.list.selectMatching}
            </Button>
          )}
          <span className="ui-muted fie-toolbar__count" aria-live="polite">
            {chosen.length > 0
              ? text.list.selected(chosen.length)
              : first
                ? `${text.list.partsInFiles(first.total, first.documentCount)}${loaded < first.total ? text.list.loadedOf(loaded) : ''}`
                : ''}
          </span>
          <div className="fie-toolbar__actions">
            <Button variant="secondary" loading={exporting} disabled={chosen.length === 0 || exporting} onClick={() => void exportSelection()}>
              {text.actions.exportA3}
            </Button>
            <SyncA3Button entryIds={chosen} />
          </div>
        </div>
        {isLoading && <Spinner label={text.list.loading} />}
        {failed && (
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
            more={more}
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
