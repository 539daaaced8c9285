import { useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { BLOCK_TYPES, templatePlaceholders, templateTakesSignature } from '#shared/documents/blocks.ts';
import type { FONT_FAMILIES } from '#shared/documents/blocks.ts';
import type { Template } from '#shared/api/documents.ts';
import type { HttpError } from '../../api/baseApi.ts';
import { useCreateDocTemplateMutation, useDocCategoriesQuery, useDocStylesQuery, useDocTemplateQuery, useSaveDocTemplateMutation } from '../../api/documents.ts';
import { useCloneSharedMutation } from '../../api/share.ts';
import { useToast } from '../../app/hooks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { Button, IconArrowLeft, IconPlus, Spinner, TextField } from '../../ui/index.ts';
import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { BlockEditor } from './BlockEditor.tsx';
import { editorBody, editorReducer, hasErrors, initialEditorState, insertAt, isDirty, localErrors, placeIssues, placeholderSnippet, blockText } from './editorModel.ts';
import type { EditorErrors, EditorState, InsertKind, TextPath } from './editorModel.ts';
import { GenerateDialog } from './GenerateDialog.tsx';
import { InsertFieldPanel } from './InsertFieldPanel.tsx';
import { ShareDialog } from '../../ui/ShareDialog.tsx';
import { TemplatePreview } from './TemplatePreview.tsx';

export interface TemplateEditorProps {
  /** A template's id, or null for a new one. */
  templateId: string | null;
  /** The category a new template starts in (the filter in use). */
  categoryId: string | null;
  onClose: () => void;
  /** A new template was saved (or a shared one duplicated): open it by its id. */
  onOpen: (id: string) => void;
  onGenerated: () => void;
  /** Told whether the editor holds unsaved changes (the page asks before switching tabs). */
  onDirtyChange?: (dirty: boolean) => void;
}

/** The editor of one template, once it is loaded (or empty for a new one). */
export function TemplateEditor(props: TemplateEditorProps) {
  const template = useDocTemplateQuery(props.templateId ?? '', { skip: props.templateId === null });
  if (props.templateId !== null) {
    if (template.isError) {
      return (
        <div className="dc-editor-state">
          <EditorHeader title={text.editor.loading} onBack={props.onClose} />
          <p role="alert">{text.editor.loadFailed}</p>
          <Button variant="secondary" onClick={() => void template.refetch()}>{text.retry}</Button>
        </div>
      );
    }
    if (template.data === undefined || template.data.id !== props.templateId) {
      return <div className="dc-editor-state" role="status"><Spinner size="medium" decorative /> {text.editor.loading}</div>;
    }
  }
  return <EditorForm key={template.data?.id ?? 'new'} {...props} template={props.templateId === null ? undefined : template.data} />;
}

/** The editor's title row (an h2: the page's h1 stays 'Documentos'), with its way back. */
function EditorHeader({ title, onBack, actions }: { title: string; onBack: () => void; actions?: ReactNode }) {
  return (
    <div className="dc-editor__head">
      <button type="button" className="ui-icon-button" onClick={onBack} aria-label={text.editor.back}>
        <IconArrowLeft size={20} />
      </button>
      <h2 className="dc-editor__title">{title}</h2>
      {actions}
    </div>
  );
}

interface InsertTarget {
  key: string;
  path: TextPath;
  element: HTMLInputElement | HTMLTextAreaElement;
}

function EditorForm({ template, categoryId, onClose, onOpen, onGenerated, onDirtyChange }: TemplateEditorProps & { template: Template | undefined }) {
  const toast = useToast();
  const startState = useMemo(() => initialEditorState(template, categoryId), [template, categoryId]);
  const [state, dispatch] = useReducer(editorReducer, startState);
  const [saved, setSaved] = useState<EditorState>(startState);
  const [errors, setErrors] = useState<EditorErrors>({ blocks: {} });
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [addType, setAddType] = useState<(typeof BLOCK_TYPES)[number]>('paragraph');
  const target = useRef<InsertTarget | null>(null);
  const pendingCaret = useRef<{ element: HTMLInputElement | HTMLTextAreaElement; caret: number } | null>(null);
  const movedKey = useRef<{ key: string; direction: 'up' | 'down' } | null>(null);
  const [createTemplate, creating] = useCreateDocTemplateMutation();
  const [saveTemplate, saving] = useSaveDocTemplateMutation();
  const [cloneShared, cloning] = useCloneSharedMutation();
  const categories = useDocCategoriesQuery();
  const styles = useDocStylesQuery();
  const ids = useId();

  const access = template?.access ?? 'owner';
  const readOnly = access === 'view';
  const dirty = !readOnly && isDirty(state, saved);
  const content = useMemo(() => ({ blocks: state.blocks.map((item) => item.block), styles: state.styles }), [state.blocks, state.styles]);
  const placeholders = useMemo(() => templatePlaceholders(content), [content]);
  const takesSignature = useMemo(() => templateTakesSignature(content), [content]);
  const presetKey = styles.data?.find((preset) => JSON.stringify(preset.styles) === JSON.stringify(state.styles))?.key ?? '';

  // Leaving the page (reload, closing the tab) with changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);

  // After an insertion the caret goes after the inserted text; after a move, focus stays on the moved block's button.
  useEffect(() => {
    const pending = pendingCaret.current;
    if (pending) {
      pendingCaret.current = null;
      pending.element.focus();
      pending.element.setSelectionRange(pending.caret, pending.caret);
    }
    const moved = movedKey.current;
    if (moved) {
      movedKey.current = null;
      const block = document.querySelector(`[data-block-key="${moved.key}"]`);
      const button = block?.querySelector<HTMLButtonElement>(`[data-move="${moved.direction}"]:not(:disabled)`) ?? block?.querySelector<HTMLButtonElement>('[data-move]:not(:disabled)');
      button?.focus();
    }
  });

  const act: typeof dispatch = (action) => {
    if (action.type === 'move') movedKey.current = { key: action.key, direction: action.by < 0 ? 'up' : 'down' };
    dispatch(action);
  };

  const insert = (kind: InsertKind, fieldName: string): boolean => {
    const current = target.current;
    if (!current || !current.element.isConnected) return false;
    const entry = state.blocks.find((item) => item.key === current.key);
    if (!entry) return false;
    const value = blockText(entry.block, current.path);
    const start = current.element.selectionStart ?? value.length;
    const end = current.element.selectionEnd ?? start;
    const next = insertAt(value, start, end, placeholderSnippet(kind, fieldName, value.slice(start, end)));
    dispatch({ type: 'text', key: current.key, path: current.path, value: next.value });
    pendingCaret.current = { element: current.element, caret: next.caret };
    return true;
  };

  const save = async () => {
    const local = localErrors(state, { nameMissing: text.editor.nameMissing, imageMissing: text.editor.imageMissing });
    setErrors(local);
    if (hasErrors(local)) {
      toast.error(text.editor.invalid);
      return;
    }
    const body = editorBody(state);
    try {
      const result = template ? await saveTemplate({ id: template.id, body }).unwrap() : await createTemplate(body).unwrap();
      setSaved(state);
      setErrors({ blocks: {} });
      toast.success(template ? text.editor.saved : text.editor.created);
      if (!template) onOpen(result.id);
    } catch (error) {
      const failure = error as HttpError;
      const placed = placeIssues(state, failure.data?.issues ?? []);
      if (!hasErrors(placed)) placed.other = failure.message || text.editor.saveFailed;
      setErrors(placed);
      toast.error(text.editor.saveFailed);
    }
  };

  const duplicate = async () => {
    if (!template) return;
    try {
      const copy = await cloneShared({ kind: 'template', id: template.id }).unwrap();
      toast.success(text.templates.duplicated);
      onOpen(copy.id);
    } catch (error) {
      toast.error((error as HttpError).message || text.failed);
    }
  };

  const leave = () => (dirty ? setConfirmLeave(true) : onClose());
  const title = template ? (readOnly ? text.editor.viewTitle(template.name) : text.editor.editTitle(template.name)) : text.editor.newTitle;

  return (
    <div className="dc-editor">
      <EditorHeader
        title={title}
        onBack={leave}
        actions={
          <div className="dc-actions">
            {template && access === 'owner' && <Button variant="secondary" onClick={() => setSharing(true)}>{text.templates.share}</Button>}
            {template && access !== 'owner' && <Button variant="secondary" loading={cloning.isLoading} onClick={() => void duplicate()}>{text.templates.duplicate}</Button>}
            {template && <Button variant="secondary" disabled={dirty} title={dirty ? text.editor.unsavedTitle : undefined} onClick={() => setGenerating(true)}>{text.templates.generate}</Button>}
            {!readOnly && <Button loading={creating.isLoading || saving.isLoading} onClick={() => void save()}>{text.editor.save}</Button>}
          </div>
        }
      />
      {readOnly && <p className="ui-info-card ui-info-card--info dc-readonly">{text.editor.readOnly}</p>}
      {errors.other && <p className="ui-inline-error" role="alert">{errors.other}</p>}
      <div className="dc-editor__grid">
        <div className="dc-editor__form">
          <section className="ui-card dc-card" aria-labelledby={`${ids}-details`}>
            <h3 id={`${ids}-details`} className="ui-visually-hidden">{text.editor.name}</h3>
            <TextField label={`${text.editor.name} *`} value={state.name} error={errors.name} readOnly={readOnly} maxLength={120} onValueChange={(value) => dispatch({ type: 'set', field: 'name', value })} />
            <div className="app-field">
              <label htmlFor={`${ids}-description`}>{text.editor.description}</label>
              <textarea id={`${ids}-description`} className="ui-input" rows={2} maxLength={500} value={state.description} readOnly={readOnly} onChange={(event) => dispatch({ type: 'set', field: 'description', value: event.target.value })} />
              {errors.description && <p className="ui-inline-error">{errors.description}</p>}
            </div>
            <label className="dc-field">
              <span>{text.editor.category}</span>
              <select className="ui-input" value={state.categoryId ?? ''} disabled={readOnly} onChange={(event) => dispatch({ type: 'category', categoryId: event.target.value === '' ? null : event.target.value })}>
                <option value="">{text.editor.noCategory}</option>
                {(categories.data ?? []).map((category) => <option key={category.id} value={category.id}>{category.name}</option>)}
                {state.categoryId !== null && categories.data && !categories.data.some((category) => category.id === state.categoryId) && <option value={state.categoryId}>{text.editor.foreignCategory}</option>}
              </select>
              {errors.categoryId && <span className="ui-inline-error">{errors.categoryId}</span>}
            </label>
          </section>

          <section className="ui-card dc-card" aria-labelledby={`${ids}-styles`}>
            <h3 id={`${ids}-styles`} className="dc-section-title">{text.editor.stylesTitle}</h3>
            <div className="dc-styles">
              <label className="dc-field">
                <span>{text.editor.preset}</span>
                <select className="ui-input" value={presetKey} disabled={readOnly} onChange={(event) => {
                  const preset = styles.data?.find((item) => item.key === event.target.value);
                  if (preset) dispatch({ type: 'styles', styles: preset.styles });
                }}>
                  {presetKey === '' && <option value="">{text.editor.presetCustom}</option>}
                  {(styles.data ?? []).map((preset) => <option key={preset.key} value={preset.key}>{preset.name}</option>)}
                </select>
              </label>
              <label className="dc-field">
                <span>{text.editor.font}</span>
                <select className="ui-input" value={state.styles.font} disabled={readOnly} onChange={(event) => dispatch({ type: 'styles', styles: { font: event.target.value as (typeof FONT_FAMILIES)[number] } })}>
                  <option value="sans">{text.editor.fonts.sans}</option>
                  <option value="serif">{text.editor.fonts.serif}</option>
                </select>
              </label>
              <label className="dc-field">
                <span>{text.editor.fontSize}</span>
                <select className="ui-input" value={state.styles.fontSize} disabled={readOnly} onChange={(event) => dispatch({ type: 'styles', styles: { fontSize: Number(event.target.value) } })}>
                  {[8, 9, 10, 11, 12, 13, 14, 15, 16].map((size) => <option key={size} value={size}>{size}</option>)}
                </select>
              </label>
              <label className="dc-field">
                <span>{text.editor.accentColor}</span>
                <input type="color" className="dc-color" value={state.styles.accentColor} disabled={readOnly} onChange={(event) => dispatch({ type: 'styles', styles: { accentColor: event.target.value } })} />
              </label>
            </div>
            {errors.styles && <p className="ui-inline-error">{errors.styles}</p>}
          </section>

          <InsertFieldPanel placeholders={placeholders} takesSignature={takesSignature} readOnly={readOnly} onInsert={insert} />

          <section className="dc-blocks" aria-labelledby={`${ids}-blocks`}>
            <h3 id={`${ids}-blocks`} className="dc-section-title">{text.editor.blocksTitle}</h3>
            {state.blocks.length === 0 && <p className="ui-muted">{text.editor.blocksEmpty}</p>}
            {state.blocks.map((entry, index) => (
              <BlockEditor
                key={entry.key}
                entry={entry}
                index={index}
                count={state.blocks.length}
                readOnly={readOnly}
                error={errors.blocks[entry.key]}
                dispatch={act}
                onTextFocus={(key, path, element) => {
                  target.current = { key, path, element };
                }}
              />
            ))}
            {!readOnly && (
              <div className="dc-add">
                <label htmlFor={`${ids}-add`} className="ui-visually-hidden">{text.editor.addBlock}</label>
                <select id={`${ids}-add`} className="ui-input" value={addType} onChange={(event) => setAddType(event.target.value as (typeof BLOCK_TYPES)[number])}>
                  {BLOCK_TYPES.map((type) => <option key={type} value={type}>{text.blockLabels[type]}</option>)}
                </select>
                <Button variant="secondary" icon={<IconPlus size={16} />} aria-label={text.editor.addBlockLabel(text.blockLabels[addType])} onClick={() => dispatch({ type: 'add', blockType: addType })}>
                  {text.editor.addBlock}
                </Button>
              </div>
            )}
          </section>
        </div>
        <aside className="dc-editor__preview" aria-labelledby={`${ids}-preview`}>
          <h3 id={`${ids}-preview`} className="dc-section-title">{text.editor.previewTitle}</h3>
          <p className="ui-muted dc-small">{text.editor.previewHint}</p>
          <TemplatePreview content={content} />
        </aside>
      </div>
      <ConfirmDialog
        open={confirmLeave}
        title={text.editor.unsavedTitle}
        text={text.editor.unsavedText}
        confirmLabel={text.editor.unsavedConfirm}
        onCancel={() => setConfirmLeave(false)}
        onConfirm={() => {
          setConfirmLeave(false);
          onClose();
        }}
      />
      {template && access === 'owner' && <ShareDialog kind="template" id={template.id} name={template.name} open={sharing} onClose={() => setSharing(false)} />}
      {template && generating && (
        <GenerateDialog
          template={{ id: template.id, name: template.name, placeholders }}
          onClose={() => setGenerating(false)}
          onGenerated={() => {
            setGenerating(false);
            onGenerated();
          }}
        />
      )}
    </div>
  );
}
