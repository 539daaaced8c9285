import { useId, useState } from 'react';
import { CATEGORY_TAKEN_MESSAGE } from '#shared/api/documents.ts';
import type { Category } from '#shared/api/documents.ts';
import type { HttpError } from '../../api/baseApi.ts';
import { useCreateDocCategoryMutation, useDeleteDocCategoryMutation, useDocCategoriesQuery, useRenameDocCategoryMutation } from '../../api/documents.ts';
import { useToast } from '../../app/hooks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { Button, IconPlus, TextField } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Modal } from '../../ui/Modal.tsx';

export interface CategoriesPanelProps {
  /** The category filter in use; null for all templates. */
  selected: string | null;
  onSelect: (categoryId: string | null) => void;
}

/** The categories as the template list's filter, each with its count; created, renamed and deleted here. */
export function CategoriesPanel({ selected, onSelect }: CategoriesPanelProps) {
  const categories = useDocCategoriesQuery();
  const [naming, setNaming] = useState<{ category: Category | null } | null>(null);
  const [removing, setRemoving] = useState<Category | null>(null);
  const [remove, removal] = useDeleteDocCategoryMutation();
  const toast = useToast();
  const titleId = useId();

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove(removing.id).unwrap();
      toast.success(text.categories.removed);
      if (selected === removing.id) onSelect(null);
    } catch (error) {
      toast.error((error as HttpError).message || text.failed);
    }
    setRemoving(null);
  };

  return (
    <nav className="ui-card dc-categories" aria-labelledby={titleId}>
      <div className="dc-categories__head">
        <h2 id={titleId} className="dc-section-title">{text.categories.title}</h2>
        <Button variant="ghost" icon={<IconPlus size={16} />} onClick={() => setNaming({ category: null })}>{text.categories.add}</Button>
      </div>
      {categories.isError ? (
        <div>
          <p role="alert" className="dc-small">{text.categories.loadFailed}</p>
          <Button variant="secondary" onClick={() => void categories.refetch()}>{text.retry}</Button>
        </div>
      ) : (
        <ul className="dc-categories__list">
          <li>
            <button type="button" className="dc-category" aria-current={selected === null ? 'true' : undefined} onClick={() => onSelect(null)}>
              <span>{text.categories.all}</span>
            </button>
          </li>
          {(categories.data ?? []).map((category) => (
            <li key={category.id} className="dc-categories__item">
              <button type="button" className="dc-category" aria-current={selected === category.id ? 'true' : undefined} onClick={() => onSelect(category.id)}>
                <span className="dc-category__name">{category.name}</span>
                <span className="dc-category__count" aria-label={text.categories.count(category.templates)}>{category.templates}</span>
              </button>
              <span className="dc-category__tools">
                <button type="button" className="ui-link-button dc-small" aria-label={text.categories.rename(category.name)} onClick={() => setNaming({ category })}>{text.categories.renameShort}</button>
                <button type="button" className="ui-link-button dc-small dc-danger-link" aria-label={text.categories.remove(category.name)} onClick={() => setRemoving(category)}>{text.categories.removeConfirm}</button>
              </span>
            </li>
          ))}
          {categories.data?.length === 0 && <li className="ui-muted dc-small dc-categories__none">{text.categories.none}</li>}
        </ul>
      )}
      {naming && <CategoryNameDialog category={naming.category} onClose={() => setNaming(null)} onCreated={onSelect} />}
      <ConfirmDialog
        open={removing !== null}
        title={text.categories.removeTitle}
        text={removing ? text.categories.removeText(removing.name) : ''}
        confirmLabel={text.categories.removeConfirm}
        busy={removal.isLoading}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      />
    </nav>
  );
}

function CategoryNameDialog({ category, onClose, onCreated }: { category: Category | null; onClose: () => void; onCreated: (id: string) => void }) {
  const [name, setName] = useState(category?.name ?? '');
  const [error, setError] = useState<string | undefined>();
  const [create, creating] = useCreateDocCategoryMutation();
  const [rename, renaming] = useRenameDocCategoryMutation();
  const toast = useToast();

  const submit = async () => {
    if (name.trim() === '') {
      setError(text.categories.nameMissing);
      return;
    }
    try {
      if (category) {
        await rename({ id: category.id, name: name.trim() }).unwrap();
        toast.success(text.categories.renamed);
      } else {
        const created = await create({ name: name.trim() }).unwrap();
        toast.success(text.categories.created);
        onCreated(created.id);
      }
      onClose();
    } catch (caught) {
      const failure = caught as HttpError;
      setError(failure.status === 409 ? CATEGORY_TAKEN_MESSAGE : (failure.data?.issues?.[0]?.message ?? failure.message ?? text.failed));
    }
  };

  return (
    <Modal
      open
      size="small"
      title={category ? text.categories.renameTitle : text.categories.addTitle}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.cancel}</Button>
          <Button loading={creating.isLoading || renaming.isLoading} onClick={() => void submit()}>{text.categories.save}</Button>
        </>
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField
          label={text.categories.name}
          value={name}
          maxLength={120}
          error={error}
          autoFocus
          onValueChange={(value) => {
            setName(value);
            setError(undefined);
          }}
        />
      </form>
    </Modal>
  );
}
