import { useState } from 'react';
import type { TemplateSummary } from '#shared/api/documents.ts';
import { formatMadridDate } from '#shared/time/madrid.ts';
import type { HttpError } from '../../api/baseApi.ts';
import { useDeleteDocTemplateMutation, useDocCategoriesQuery, useDocTemplatesQuery } from '../../api/documents.ts';
import type { TemplateScope } from '../../api/documents.ts';
import { useCloneSharedMutation } from '../../api/share.ts';
import { useToast } from '../../app/hooks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { Button, EmptyState, IconFile, IconPlus, SearchInput, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { SegmentedFilter } from '../../ui/Tabs.tsx';
import { CategoriesPanel } from './CategoriesPanel.tsx';
import { GenerateDialog } from './GenerateDialog.tsx';
import { ShareDialog } from '../../ui/ShareDialog.tsx';
import { StartersDialog } from './StartersDialog.tsx';
import { TemplateEditor } from './TemplateEditor.tsx';
import type { CreatorView } from './view.ts';

export interface TemplatesTabProps {
  view: CreatorView;
  change: (partial: Partial<CreatorView>, options?: { replace?: boolean }) => void;
  onGenerated: () => void;
  onDirtyChange?: (dirty: boolean) => void;
}

const SCOPES: readonly { value: TemplateScope; label: string }[] = [
  { value: 'all', label: text.templates.scopes.all },
  { value: 'own', label: text.templates.scopes.own },
  { value: 'shared', label: text.templates.scopes.shared },
];

/** Plantillas: the categories as a filter, the templates (search, scope), starters, and the editor of one. */
export function TemplatesTab({ view, change, onGenerated, onDirtyChange }: TemplatesTabProps) {
  if (view.template !== null) {
    return (
      <TemplateEditor
        templateId={view.template === 'nueva' ? null : view.template}
        categoryId={view.category}
        onClose={() => change({ template: null })}
        onOpen={(id) => change({ template: id }, { replace: view.template === 'nueva' })}
        onGenerated={onGenerated}
        onDirtyChange={onDirtyChange}
      />
    );
  }
  return <TemplateList view={view} change={change} onGenerated={onGenerated} />;
}

function TemplateList({ view, change, onGenerated }: TemplatesTabProps) {
  const templates = useDocTemplatesQuery({ categoryId: view.category ?? undefined, q: view.q || undefined, scope: view.scope });
  const categories = useDocCategoriesQuery();
  const [starting, setStarting] = useState(false);
  const [sharing, setSharing] = useState<TemplateSummary | null>(null);
  const [generating, setGenerating] = useState<TemplateSummary | null>(null);
  const [removing, setRemoving] = useState<TemplateSummary | null>(null);
  const [remove, removal] = useDeleteDocTemplateMutation();
  const [cloneShared] = useCloneSharedMutation();
  const toast = useToast();
  const filtered = view.q !== '' || view.scope !== 'all' || view.category !== null;
  const categoryName = (id: string | null) => (id === null ? text.templates.noCategory : (categories.data?.find((category) => category.id === id)?.name ?? text.templates.noCategory));

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove(removing.id).unwrap();
      toast.success(text.templates.removed);
    } catch (error) {
      toast.error((error as HttpError).message || text.failed);
    }
    setRemoving(null);
  };
  const duplicate = async (template: TemplateSummary) => {
    try {
      const copy = await cloneShared({ kind: 'template', id: template.id }).unwrap();
      toast.success(text.templates.duplicated);
      change({ template: copy.id });
    } catch (error) {
      toast.error((error as HttpError).message || text.failed);
    }
  };

  return (
    <div className="dc-templates">
      <CategoriesPanel selected={view.category} onSelect={(category) => change({ category }, { replace: true })} />
      <section className="dc-templates__main" aria-label={text.templates.listTitle}>
        <div className="dc-toolbar">
          <SearchInput label={text.templates.search} value={view.q} debounceMs={300} onSearch={(q) => change({ q }, { replace: true })} />
          <SegmentedFilter label={text.templates.scopeLabel} options={SCOPES} value={view.scope} onChange={(scope) => change({ scope }, { replace: true })} />
        </div>
        <div className="dc-actions">
          <Button icon={<IconPlus size={16} />} onClick={() => change({ template: 'nueva' })}>{text.templates.newTemplate}</Button>
          <Button variant="secondary" onClick={() => setStarting(true)}>{text.templates.fromStarter}</Button>
        </div>
        {templates.isError ? (
          <div className="dc-state">
            <p role="alert">{text.templates.loadFailed}</p>
            <Button variant="secondary" onClick={() => void templates.refetch()}>{text.retry}</Button>
          </div>
        ) : templates.data === undefined ? (
          <p className="dc-state" role="status"><Spinner size="small" decorative /> {text.templates.loading}</p>
        ) : templates.data.length === 0 ? (
          filtered ? (
            <EmptyState headingLevel={3} title={text.templates.noResults} text={text.templates.noResultsText} />
          ) : (
            <EmptyState
              headingLevel={3}
              icon={<IconFile />}
              title={text.templates.emptyTitle}
              text={text.templates.emptyText}
              action={<Button onClick={() => setStarting(true)}>{text.templates.fromStarter}</Button>}
            />
          )
        ) : (
          <ul className="dc-cards">
            {templates.data.map((template) => (
              <li key={template.id} className="ui-card dc-template">
                <div className="dc-template__head">
                  <h3 className="dc-template__name">
                    <button type="button" className="ui-link-button" onClick={() => change({ template: template.id })}>{template.name}</button>
                  </h3>
                  <span className={`ui-chip${template.access === 'owner' ? '' : ' ui-chip--notice'}`}>{text.templates.access[template.access]}</span>
                </div>
                {template.description && <p className="dc-template__description">{template.description}</p>}
                <p className="ui-muted dc-small dc-template__meta">
                  <span>{categoryName(template.categoryId)}</span>
                  <span>{text.templates.owner(template.ownerName)}</span>
                  <span>{text.templates.fields(template.placeholders.length)}</span>
                  {template.takesSignature && <span>{text.templates.signature}</span>}
                  <span>{text.templates.updated(formatMadridDate(new Date(template.updatedAt)))}</span>
                </p>
                <div className="dc-template__actions" role="group" aria-label={text.templates.actionsFor(template.name)}>
                  <Button variant="secondary" onClick={() => change({ template: template.id })}>{template.access === 'view' ? text.templates.view : text.templates.edit}</Button>
                  <Button variant="secondary" onClick={() => setGenerating(template)}>{text.templates.generate}</Button>
                  {template.access === 'owner' ? (
                    <>
                      <Button variant="ghost" onClick={() => setSharing(template)}>{text.templates.share}</Button>
                      <Button variant="ghost" className="dc-danger" onClick={() => setRemoving(template)}>{text.templates.remove}</Button>
                    </>
                  ) : (
                    <Button variant="ghost" onClick={() => void duplicate(template)}>{text.templates.duplicate}</Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      {starting && (
        <StartersDialog
          onClose={() => setStarting(false)}
          onCreated={(id) => {
            setStarting(false);
            change({ template: id });
          }}
        />
      )}
      {sharing && <ShareDialog kind="template" id={sharing.id} name={sharing.name} open onClose={() => setSharing(null)} />}
      {generating && (
        <GenerateDialog
          template={generating}
          onClose={() => setGenerating(null)}
          onGenerated={() => {
            setGenerating(null);
            onGenerated();
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={text.templates.removeTitle}
        text={removing ? text.templates.removeText(removing.name) : ''}
        confirmLabel={text.templates.remove}
        busy={removal.isLoading}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      />
    </div>
  );
}
