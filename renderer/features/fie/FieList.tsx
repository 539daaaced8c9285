import type { ReactNode } from 'react';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { FieEntryView } from '#shared/api/fie.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { Button, IconChevronDown, IconChevronRight } from '../../ui/index.ts';
import { documentDate, documentName, entryDates, formatDay, isSelectable } from './fieRows.ts';
import type { FieRow, ListedDocument } from './fieRows.ts';

/** Estimated heights before a row is measured (a wide screen's header and entry). */
const DOCUMENT_ROW_ESTIMATE = 52;
const ENTRY_ROW_ESTIMATE = 88;

export interface FieListProps {
  rows: readonly FieRow[];
  onToggle: (documentId: string) => void;
  selected: ReadonlySet<string>;
  onSelect: (entryId: string, selected: boolean) => void;
  deleting: ReadonlySet<string>;
  onDelete: (document: ListedDocument) => void;
  /** The filters: when they change (a search), the list goes back to its top, where the results start. */
  scrollKey?: string;
  /** The next page of entries (issue 43, 6): asked for when a 'more' row comes into view, or by its button. */
  more?: LoadMore;
}

export interface LoadMore {
  load: () => void;
  loading: boolean;
  /** The last page asked for failed: no more asked for by scrolling, only by the button. */
  failed: boolean;
  /** Pages loaded so far: each one more lets a 'more' row still in view ask for the next. */
  pages: number;
}

/**
 * Every document header and the entries of the open ones, as one flat list of which only the rows in
 * view are in the DOM (TanStack Virtual, rows measured as drawn): 10,000 entries scroll like 10.
 */
export function FieList({ rows, onToggle, selected, onSelect, deleting, onDelete, scrollKey, more }: FieListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (rows[index]?.kind === 'document' ? DOCUMENT_ROW_ESTIMATE : ENTRY_ROW_ESTIMATE),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 6,
  });
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [scrollKey]);
  return (
    <div ref={scrollRef} className="fie-list" data-testid="fie-list-scroll">
      <div role="list" aria-label={text.list.caption} className="fie-list__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <div
              key={row.key}
              role="listitem"
              ref={virtualizer.measureElement}
              data-index={item.index}
              // Only some rows exist at a time: their place in the whole list, for screen readers.
              aria-setsize={rows.length}
              aria-posinset={item.index + 1}
              className={`fie-list__row fie-list__row--${row.kind}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row.kind === 'document' ? (
                <DocumentHeader document={row.document} expanded={row.expanded} busy={deleting.has(row.document._id)} onToggle={onToggle} onDelete={onDelete} />
              ) : row.kind === 'entry' ? (
                <EntryRow entry={row.entry} checked={selected.has(row.entry._id)} onSelect={onSelect} />
              ) : (
                <MoreRow missing={row.missing} more={more} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * After an open document's loaded entries: how many are still to come. Drawn only when in view (the
 * list is virtual), so drawing it asks for the next page; when that page ends before this document's
 * entries, it asks again, until they are all loaded. After a failure only the button asks.
 */
function MoreRow({ missing, more }: { missing: number; more: LoadMore | undefined }) {
  const loadRef = useRef(more?.load);
  useLayoutEffect(() => {
    loadRef.current = more?.load;
  });
  const loading = more?.loading ?? false;
  const failed = more?.failed ?? false;
  const pages = more?.pages ?? 0;
  useEffect(() => {
    if (!loading && !failed) loadRef.current?.();
  }, [loading, failed, missing, pages]);
  return (
    <div className="fie-more" aria-busy={loading || undefined}>
      <span className="ui-muted">{failed ? text.list.loadMoreFailed : text.list.missing(missing)}</span>
      <Button variant="ghost" loading={loading} disabled={loading || !more} onClick={() => more?.load()}>
        {loading ? text.list.loadingMore : text.list.loadMore}
      </Button>
    </div>
  );
}

interface DocumentHeaderProps {
  document: ListedDocument;
  expanded: boolean;
  busy: boolean;
  onToggle: (documentId: string) => void;
  onDelete: (document: ListedDocument) => void;
}

// Memoised: scrolling re-renders the list, and the rows that stay in view need not be drawn again.
const DocumentHeader = memo(function DocumentHeader({ document, expanded, busy, onToggle, onDelete }: DocumentHeaderProps) {
  const name = documentName(document);
  // The entries that match (loaded or not) of the document's own.
  const shown = document.matches;
  const count = shown === document.entryCount ? text.list.entries(shown) : text.list.entriesShown(shown, document.entryCount);
  const Chevron = expanded ? IconChevronDown : IconChevronRight;
  return (
    <div className="fie-doc" aria-busy={busy || undefined}>
      <button
        type="button"
        className="fie-doc__toggle"
        aria-expanded={expanded}
        aria-label={text.list.documentLabel(documentDate(document), name, count)}
        onClick={() => onToggle(document._id)}
      >
        <Chevron size={18} className="fie-doc__chevron" />
        <span className="fie-doc__date">{documentDate(document)}</span>
        <span className="fie-doc__name">{name}</span>
        <span className="ui-chip fie-doc__count">{count}</span>
      </button>
      <Button variant="ghost" className="fie-doc__delete" aria-label={text.list.deleteLabel(name)} loading={busy} disabled={busy} onClick={() => onDelete(document)}>
        {busy ? text.list.deleting : text.list.delete}
      </Button>
    </div>
  );
});

function Fact({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className ? `fie-fact ${className}` : 'fie-fact'}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const EntryRow = memo(function EntryRow({ entry, checked, onSelect }: { entry: FieEntryView; checked: boolean; onSelect: (entryId: string, selected: boolean) => void }) {
  const hintId = `fie-disabled-${entry._id}`;
  const selectable = isSelectable(entry);
  return (
    <div className={entry.disabled ? 'fie-entry fie-entry--disabled' : 'fie-entry'}>
      <input
        type="checkbox"
        className="fie-entry__check"
        aria-label={text.list.select(entry.fullname)}
        checked={checked && selectable}
        disabled={!selectable}
        aria-describedby={selectable ? undefined : hintId}
        onChange={(event) => onSelect(entry._id, event.target.checked)}
      />
      <div className="fie-entry__body">
        <div className="fie-entry__head">
          <span className={entry.disabled ? 'fie-type fie-type--disabled' : `fie-type fie-type--${entry.type}`}>{entry.typeLabel}</span>
          {entry.isCanceled && <span className="ui-chip fie-chip--canceled">{text.list.canceled}</span>}
          <span className="fie-entry__name">{entry.fullname}</span>
          {!selectable && <span id={hintId} className="ui-visually-hidden">{entry.disabled ? text.list.disabledType : text.list.canceledHint}</span>}
        </div>
        <dl className="fie-entry__facts">
          <Fact label={text.list.nif}>{entry.nif ?? text.list.none}</Fact>
          <Fact label={text.list.company}>
            {entry.companyName ?? text.list.none}
            {entry.formattedCcc && <span className="fie-entry__ccc"> · {text.list.ccc} {entry.formattedCcc}</span>}
          </Fact>
          {entryDates(entry).map((date) => (
            <Fact key={date.label} label={date.label}>{date.value}</Fact>
          ))}
          {entry.duration !== null && (
            <Fact label={text.list.duration}>
              {text.list.days(entry.duration)}
              {entry.shortDuration && (
                <>
                  {' '}
                  <span className="ui-chip fie-chip--short">
                    {text.list.shortDuration}
                    <span className="ui-visually-hidden"> {text.list.shortDurationHint}</span>
                  </span>
                </>
              )}
            </Fact>
          )}
          {entry.contingency && <Fact label={text.list.contingency}>{entry.contingency}</Fact>}
          {entry.incidence && <Fact label={text.list.incidence}>{`${entry.incidence.code} · ${entry.incidence.label}`}</Fact>}
          <Fact label={text.list.a3}>
            <span className={`fie-a3 fie-a3--${entry.a3sync}`}>{text.a3States[entry.a3sync]}</span>
          </Fact>
          {entry.confirmations.length > 0 && (
            <Fact label={text.list.confirmations(entry.confirmations.length)} className="fie-fact--confirmations">
              {entry.confirmations.map((confirmation) => text.list.confirmation(confirmation.number, formatDay(confirmation.date))).join(', ')}
            </Fact>
          )}
          {entry.lastError && <Fact label={text.list.lastError} className="fie-fact--error">{entry.lastError}</Fact>}
        </dl>
      </div>
    </div>
  );
});
