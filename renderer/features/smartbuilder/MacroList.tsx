import { useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { MACRO_BODY_LIMIT } from '#shared/macros/definition.ts';
import { formatMadridDate } from '#shared/time/madrid.ts';
import { problemsOf, useCloneMacroMutation, useDeleteMacroMutation, useImportMacroMutation, useMacrosQuery } from '../../api/macros.ts';
import type { MacroSummary } from '../../api/macros.ts';
import { useToast } from '../../app/hooks.ts';
import { macros } from '../../i18n/es-macros.ts';
import { Button, EmptyState, IconBlocks, IconPlus, IconUpload, SearchInput, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { SegmentedFilter } from '../../ui/Tabs.tsx';

const text = macros.smartbuilder.list;

export type MacroScope = 'all' | 'own' | 'shared';
const SCOPES: readonly { value: MacroScope; label: string }[] = [
  { value: 'all', label: text.scopes.all },
  { value: 'own', label: text.scopes.own },
  { value: 'shared', label: text.scopes.shared },
];

export interface MacroListProps {
  q: string;
  scope: MacroScope;
  onFilter: (filter: { q?: string; scope?: MacroScope }) => void;
  onOpen: (id: string) => void;
  onNew: () => void;
}

/** Lowercase without accents, so 'nomina' finds 'Nómina'. */
const folded = (value: string) => value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** The firm's macros the caller sees: own and shared, searched, with 'Nuevo robot' and 'Importar'. */
export function MacroList({ q, scope, onFilter, onOpen, onNew }: MacroListProps) {
  const list = useMacrosQuery();
  const toast = useToast();
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [importProblems, setImportProblems] = useState<string[]>([]);
  const [removing, setRemoving] = useState<MacroSummary | null>(null);
  const [importMacro, importing] = useImportMacroMutation();
  const [cloneMacro] = useCloneMacroMutation();
  const [deleteMacro, deleting] = useDeleteMacroMutation();

  const shown = (list.data ?? []).filter(
    (macro) => (scope === 'all' || (scope === 'own') === (macro.access === 'owner')) && (q === '' || folded(`${macro.name} ${macro.description}`).includes(folded(q))),
  );

  const importFile = async (file: File) => {
    setImportProblems([]);
    if (file.size > MACRO_BODY_LIMIT) {
      setImportProblems([text.importTooBig]);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await file.text());
    } catch {
      setImportProblems([text.importNotJson]);
      return;
    }
    try {
      const created = await importMacro(body).unwrap();
      toast.success(text.imported(created.name));
      onOpen(created.id);
    } catch (error) {
      setImportProblems(problemsOf(error, macros.failed));
    }
  };

  const duplicate = async (macro: MacroSummary) => {
    try {
      const copy = await cloneMacro(macro.id).unwrap();
      toast.success(text.duplicated);
      onOpen(copy.id);
    } catch (error) {
      toast.error(problemsOf(error, macros.failed)[0]!);
    }
  };

  const remove = async () => {
    if (!removing) return;
    try {
      await deleteMacro(removing.id).unwrap();
      toast.success(macros.smartbuilder.editor.removed);
    } catch (error) {
      toast.error(problemsOf(error, macros.failed)[0]!);
    }
    setRemoving(null);
  };

  return (
    <section className="sb-list" aria-label={text.label}>
      <div className="sb-toolbar">
        <SearchInput label={text.search} value={q} debounceMs={300} onSearch={(value) => onFilter({ q: value })} />
        <SegmentedFilter label={text.scopeLabel} options={SCOPES} value={scope} onChange={(value) => onFilter({ scope: value })} />
      </div>
      <div className="sb-actions">
        <Button icon={<IconPlus size={16} />} onClick={onNew}>{text.newRobot}</Button>
        <Button variant="secondary" icon={<IconUpload size={16} />} loading={importing.isLoading} onClick={() => fileInput.current?.click()} aria-describedby={importProblems.length > 0 ? `${ids}-import` : undefined}>
          {importing.isLoading ? text.importing : text.import}
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          className="ui-visually-hidden"
          aria-label={text.importLabel}
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importFile(file);
          }}
        />
      </div>
      {importProblems.length > 0 && (
        <div className="sb-problems" role="alert" id={`${ids}-import`}>
          <h3 className="sb-section-title">{text.importFailedTitle}</h3>
          <ul>{importProblems.map((problem, index) => <li key={index}>{problem}</li>)}</ul>
        </div>
      )}
      {list.isError ? (
        <div className="sb-state">
          <p role="alert">{text.loadFailed}</p>
          <Button variant="secondary" onClick={() => void list.refetch()}>{macros.retry}</Button>
        </div>
      ) : list.data === undefined ? (
        <p className="sb-state" role="status"><Spinner size="small" decorative /> {text.loading}</p>
      ) : list.data.length === 0 ? (
        <EmptyState headingLevel={2} icon={<IconBlocks />} title={text.emptyTitle} text={text.emptyText} action={<Button onClick={onNew}>{text.newRobot}</Button>} />
      ) : shown.length === 0 ? (
        <EmptyState headingLevel={2} title={text.noResults} text={text.noResultsText} />
      ) : (
        <ul className="sb-cards">
          {shown.map((macro) => (
            <li key={macro.id} className="ui-card sb-macro">
              <div className="sb-macro__head">
                <h2 className="sb-macro__name">
                  <button type="button" className="ui-link-button" onClick={() => onOpen(macro.id)}>{macro.name}</button>
                </h2>
                <span className={`ui-chip${macro.access === 'owner' ? '' : ' sb-chip--notice'}`}>{text.access[macro.access]}</span>
              </div>
              {macro.description && <p className="sb-macro__description">{macro.description}</p>}
              <p className="ui-muted sb-small sb-macro__meta">
                <span>{text.steps(macro.steps)}</span>
                <span>{text.version(macro.version)}</span>
                <span>{text.owner(macro.ownerName)}</span>
                <span>{text.updated(formatMadridDate(new Date(macro.updatedAt)))}</span>
              </p>
              <div className="sb-macro__actions" role="group" aria-label={text.actionsFor(macro.name)}>
                <Button variant="secondary" onClick={() => onOpen(macro.id)}>{macro.access === 'view' ? text.view : text.open}</Button>
                <Link className="ui-button ui-button--secondary" to={`/launcher/${encodeURIComponent(macro.flowId)}`} aria-label={text.testLabel(macro.name)}>{text.test}</Link>
                <Button variant="ghost" onClick={() => void duplicate(macro)}>{text.duplicate}</Button>
                {macro.access === 'owner' && <Button variant="ghost" className="sb-danger" onClick={() => setRemoving(macro)}>{text.remove}</Button>}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={macros.smartbuilder.editor.removeTitle}
        text={removing ? macros.smartbuilder.editor.removeText(removing.name) : ''}
        confirmLabel={text.remove}
        busy={deleting.isLoading}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void remove()}
      />
    </section>
  );
}
