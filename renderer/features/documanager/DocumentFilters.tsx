import { useId } from 'react';
import { MANAGED_DOCUMENT_KINDS, MANAGED_DOCUMENT_KIND_LABELS } from '#shared/api/documentmanager.ts';
import type { ManagedDocumentKind } from '#shared/api/documentmanager.ts';
import { useManagedDocumentCompaniesQuery } from '../../api/documentManager.ts';
import { documanager as text } from '../../i18n/es-documanager.ts';
import { Button } from '../../ui/index.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { SEARCH_DEBOUNCE_MS, hasFilters } from './documanagerView.ts';
import type { DocumentManagerView } from './documanagerView.ts';

export interface DocumentFiltersProps {
  view: DocumentManagerView;
  onChange: (change: Partial<DocumentManagerView>) => void;
}

/** Kind, client company (the companies documents are about, with their counts) and the search box (debounced). */
export function DocumentFilters({ view, onChange }: DocumentFiltersProps) {
  const kindId = useId();
  const companyId = useId();
  const companies = useManagedDocumentCompaniesQuery();
  const listed = companies.data ?? [];
  // A company from the address that the list does not hold (yet, or any more) stays selectable.
  const options = view.company && !listed.some((item) => item.company === view.company) ? [{ company: view.company, documents: 0 }, ...listed] : listed;

  return (
    <div className="documanager-filters" role="search" aria-label={text.filtersLabel}>
      <label className="documanager-filters__field" htmlFor={kindId}>
        <span>{text.kind}</span>
        <select id={kindId} className="ui-input" value={view.kind} onChange={(event) => onChange({ kind: event.target.value as ManagedDocumentKind | '' })}>
          <option value="">{text.allKinds}</option>
          {MANAGED_DOCUMENT_KINDS.map((kind) => <option key={kind} value={kind}>{MANAGED_DOCUMENT_KIND_LABELS[kind]}</option>)}
        </select>
      </label>
      <label className="documanager-filters__field" htmlFor={companyId}>
        <span>{text.company}</span>
        <select id={companyId} className="ui-input" value={view.company} onChange={(event) => onChange({ company: event.target.value })}>
          <option value="">{text.allCompanies}</option>
          {options.map((item) => (
            <option key={item.company} value={item.company}>{item.documents > 0 ? text.companyOption(item.company, item.documents) : item.company}</option>
          ))}
        </select>
      </label>
      <div className="documanager-filters__search">
        <SearchInput label={text.search} placeholder={text.searchPlaceholder} value={view.q} debounceMs={SEARCH_DEBOUNCE_MS} onSearch={(q) => onChange({ q })} />
      </div>
      {hasFilters(view) && (
        <Button variant="ghost" onClick={() => onChange({ kind: '', company: '', q: '' })}>{text.clear}</Button>
      )}
      {companies.isError && <p className="ui-muted documanager-filters__note">{text.companiesFailed}</p>}
    </div>
  );
}
