import { useState } from 'react';
import type { ClientCompany, CompanyGroup } from '#shared/api/altas.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, EmptyState, ErrorBanner, IconUsers, PageHeader, Spinner } from '../../ui/index.ts';
import { useAltasCompaniesQuery, useAltasFormDefinitionQuery } from './altasApi.ts';
import { CompanyCard } from './CompanyCard.tsx';
import { CompanyModal } from './CompanyModal.tsx';
import { CopyGroupModal, GroupModal } from './GroupModal.tsx';

/** What a modal of this view is showing, if any. */
type Dialog =
  | { kind: 'company'; company: ClientCompany | null }
  | { kind: 'group'; company: ClientCompany; group: CompanyGroup | null }
  | { kind: 'copy'; company: ClientCompany; group: CompanyGroup };

/** 'Configuración de empresas y grupos': the companies, each expandable to its groups. */
export function CompaniesView({ onBack }: { onBack: () => void }) {
  const companies = useAltasCompaniesQuery();
  const definition = useAltasFormDefinitionQuery();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const items = companies.data ?? [];

  const setOpen = (id: string, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <main className="ui-page altas-page">
      <PageHeader
        title={text.companies.title}
        onBack={onBack}
        actions={<Button onClick={() => setDialog({ kind: 'company', company: null })}>{text.companies.newCompany}</Button>}
      />
      {companies.isError && <ErrorBanner data={{ hasError: true, msg: text.dashboard.companiesFailed }} />}
      {companies.isLoading ? (
        <div className="altas-loading" role="status">
          <Spinner size="small" decorative />
          <span>{text.companies.loading}</span>
        </div>
      ) : items.length === 0 && !companies.isError ? (
        <EmptyState icon={<IconUsers />} title={text.companies.empty} text={text.companies.emptyText} />
      ) : (
        <ul className="altas-companies">
          {items.map((company) => (
            <CompanyCard
              key={company._id}
              company={company}
              expanded={expanded.has(company._id)}
              onExpandedChange={(open) => setOpen(company._id, open)}
              onEdit={() => setDialog({ kind: 'company', company })}
              onNewGroup={() => setDialog({ kind: 'group', company, group: null })}
              onEditGroup={(group) => setDialog({ kind: 'group', company, group })}
              onCopyGroup={(group) => setDialog({ kind: 'copy', company, group })}
            />
          ))}
        </ul>
      )}
      {dialog?.kind === 'company' && <CompanyModal company={dialog.company} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'group' && definition.data && (
        <GroupModal company={dialog.company} group={dialog.group} definition={definition.data} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'copy' && (
        <CopyGroupModal group={dialog.group} from={dialog.company} companies={items} onClose={() => setDialog(null)} />
      )}
    </main>
  );
}
