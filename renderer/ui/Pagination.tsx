import { useId, useState, type FormEvent } from 'react';
import { widgets } from '../i18n/es-screens.ts';

/** From this many pages on, a field to go straight to one (issue 43, 5: 'Página 1 de 661' took 660 clicks to the end). */
export const PAGE_JUMP_FROM = 6;

export interface PaginationProps {
  /** Zero-based index of the page shown. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
}

/**
 * Anterior / 'Página n de m' / Siguiente, and with many pages a number field to go to one (Enter or
 * 'Ir'); a number past either end goes to that end.
 */
export function Pagination({ page, pageCount, onPageChange }: PaginationProps) {
  const fieldId = useId();
  const [draft, setDraft] = useState('');
  if (pageCount <= 1) return null;
  const wanted = Number.parseInt(draft, 10);
  const jump = (event: FormEvent) => {
    event.preventDefault();
    if (Number.isNaN(wanted)) return;
    onPageChange(Math.min(pageCount, Math.max(1, wanted)) - 1);
    setDraft('');
  };
  return (
    <nav className="ui-pagination" aria-label={widgets.pagination}>
      <button type="button" className="ui-button ui-button--ghost" disabled={page === 0} onClick={() => onPageChange(page - 1)}>
        {widgets.previousPage}
      </button>
      <span className="ui-pagination__status" aria-live="polite">
        {widgets.pageOf(page + 1, pageCount)}
      </span>
      <button type="button" className="ui-button ui-button--ghost" disabled={page >= pageCount - 1} onClick={() => onPageChange(page + 1)}>
        {widgets.nextPage}
      </button>
      {pageCount >= PAGE_JUMP_FROM && (
        <form className="ui-pagination__jump" onSubmit={jump} noValidate>
          <label htmlFor={fieldId}>{widgets.goToPage}</label>
          <input
            id={fieldId}
            className="ui-input ui-pagination__field"
            type="number"
            inputMode="numeric"
            min={1}
            max={pageCount}
            step={1}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="ui-button ui-button--ghost" disabled={Number.isNaN(wanted)}>
            {widgets.go}
          </button>
        </form>
      )}
    </nav>
  );
}
