import { widgets } from '../i18n/es-screens.ts';

export interface PaginationProps {
  /** Zero-based index of the page shown. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
}

export function Pagination({ page, pageCount, onPageChange }: PaginationProps) {
  if (pageCount <= 1) return null;
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
    </nav>
  );
}
