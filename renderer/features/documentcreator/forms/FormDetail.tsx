import { useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { OnlineForm } from '#shared/api/onlineforms.ts';
import type { HttpError } from '../../../api/baseApi.ts';
import { useDocTemplatesQuery } from '../../../api/documents.ts';
import {
  publicFormUrl, useCloseOnlineFormMutation, useDeleteOnlineFormMutation, useOnlineFormQuery, usePublishOnlineFormMutation,
  useSaveOnlineFormMutation,
} from '../../../api/onlineForms.ts';
import { useToast } from '../../../app/hooks.ts';
import { formsTab as text } from '../../../i18n/es-onlineforms.ts';
import { Button, EmptyState, ErrorBanner, IconArrowLeft, IconForm, IconMail } from '../../../ui/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { SegmentedFilter } from '../../../ui/Tabs.tsx';
import { ShareDialog } from '../../../ui/ShareDialog.tsx';
import { FormEditor } from './FieldsEditor.tsx';
import { StatusChip } from './FormsList.tsx';
import { SendLinkDialog } from './SendLinkDialog.tsx';
import { SubmissionsPanel } from './SubmissionsPanel.tsx';
import { bodyOf, draftChanged, draftErrors, draftOf, placeBodyIssues } from './formEditorModel.ts';
import type { DraftErrors, FormDraft } from './formEditorModel.ts';

export interface FormDetailProps {
  id: string;
  onBack: () => void;
}

/** One form: its state and actions, the public link, the editor and the submissions. */
export function FormDetail({ id, onBack }: FormDetailProps) {
  const form = useOnlineFormQuery(id);
  const back = (
    <Button variant="ghost" icon={<IconArrowLeft size={18} />} onClick={onBack}>{text.back}</Button>
  );
  if (form.isError) {
    const missing = (form.error as HttpError | undefined)?.status === 404;
    return (
      <div className="forms-detail">
        <div>{back}</div>
        <EmptyState
          headingLevel={3}
          icon={<IconForm />}
          title={missing ? ((form.error as HttpError).message || text.loadFailed) : text.loadFailed}
          action={missing ? undefined : <Button variant="secondary" onClick={() => void form.refetch()}>{text.retry}</Button>}
        />
      </div>
    );
  }
  if (form.data === undefined) {
    return (
      <div className="forms-detail">
        <div>{back}</div>
        <div className="forms-skeleton" role="status" aria-label={text.loading}>
          {Array.from({ length: 4 }, (_, index) => <div key={index} className="forms-skeleton__row" />)}
        </div>
      </div>
    );
  }
  return <FormDetailLoaded form={form.data} back={back} onDeleted={onBack} />;
}

function FormDetailLoaded({ form, back, onDeleted }: { form: OnlineForm; back: ReactNode; onDeleted: () => void }) {
  const toast = useToast();
  const templates = useDocTemplatesQuery({});
  const [save, saving] = useSaveOnlineFormMutation();
  const [publish, publishing] = usePublishOnlineFormMutation();
  const [close, closing] = useCloseOnlineFormMutation();
  const [remove, removing] = useDeleteOnlineFormMutation();
  const [saved, setSaved] = useState<FormDraft>(() => draftOf(form));
  const [draft, setDraft] = useState<FormDraft>(saved);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'send' | 'share' | 'close' | 'delete' | null>(null);
  // A draft opens on its editor; a form that takes or took answers on them (the editor is a click away).
  const [section, setSection] = useState<'answers' | 'edit'>(form.status === 'draft' ? 'edit' : 'answers');
  const linkId = useId();

  // A form changed by the server (a publish, another tab) comes back: an editor without unsaved changes follows it.
  const serverKey = JSON.stringify(bodyOf(draftOf(form)));
  const lastServerKey = useRef(serverKey);
  useEffect(() => {
    if (lastServerKey.current === serverKey) return;
    lastServerKey.current = serverKey;
    const next = draftOf(form);
    if (!draftChanged(draft, saved)) setDraft(next);
    setSaved(next);
  }, [serverKey]); // eslint-disable-line react-hooks/exhaustive-deps -- only a new server version matters

  const canEdit = form.access !== 'view';
  const isOwner = form.access === 'owner';
  const changed = draftChanged(draft, saved);
  const placeholders = templates.data?.find((template) => template.id === form.templateId)?.placeholders ?? [];
  const url = publicFormUrl(form.publicPath);

  /** Saves the editor when it changed; false when something stops it (errors are shown). */
  const saveDraft = async (): Promise<boolean> => {
    setBanner(null);
    const found = draftErrors(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setBanner(text.editor.checkFields);
      setSection('edit');
      return false;
    }
    if (!changed) return true;
    try {
      const next = await save({ id: form.id, body: bodyOf(draft) }).unwrap();
      const nextDraft = draftOf(next);
      setSaved(nextDraft);
      setDraft(nextDraft);
      return true;
    } catch (failure) {
      const httpError = failure as HttpError;
      const placed = placeBodyIssues(httpError.data?.issues ?? []);
      setErrors(placed);
      if (Object.keys(placed).length > 0) setSection('edit');
      setBanner(Object.keys(placed).length > 0 ? text.editor.checkFields : httpError.message || text.editor.saveFailed);
      return false;
    }
  };

  const onSave = async () => {
    if (changed && (await saveDraft())) toast.success(text.editor.saved);
    else if (!changed) await saveDraft();
  };

  const onPublish = async () => {
    if (!(await saveDraft())) return;
    try {
      await publish(form.id).unwrap();
      toast.success(text.actions.published);
    } catch (failure) {
      setBanner((failure as HttpError).message || text.actions.failed);
    }
  };

  const onClose = async () => {
    try {
      await close(form.id).unwrap();
      toast.success(text.actions.closed);
      setDialog(null);
    } catch (failure) {
      toast.error((failure as HttpError).message || text.actions.failed);
    }
  };

  const onDelete = async () => {
    try {
      await remove(form.id).unwrap();
      toast.success(text.actions.deleted);
      setDialog(null);
      onDeleted();
    } catch (failure) {
      toast.error((failure as HttpError).message || text.actions.failed);
    }
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(text.link.copied);
    } catch {
      document.getElementById(linkId)?.focus();
      (document.getElementById(linkId) as HTMLInputElement | null)?.select();
      toast.error(text.link.copyFailed);
    }
  };

  return (
    <div className="forms-detail">
      <div>{back}</div>
      <header className="forms-detail__head">
        <div className="forms-detail__name">
          <h2 className="forms-detail__title">{form.title}</h2>
          <p className="ui-muted">
            <StatusChip status={form.status} /> {form.templateName}
            {form.access !== 'owner' && <> · {form.ownerName} ({text.access[form.access]})</>}
          </p>
        </div>
        <div className="forms-detail__actions">
          {canEdit && (
            <Button variant="secondary" loading={saving.isLoading} disabled={!changed} onClick={() => void onSave()}>
              {form.status === 'draft' ? text.editor.save : text.editor.saveChanges}
            </Button>
          )}
          {canEdit && (
            <Button loading={publishing.isLoading} onClick={() => void onPublish()}>
              {form.status === 'published' ? text.actions.republish : text.actions.publish}
            </Button>
          )}
          {canEdit && form.status === 'published' && <Button variant="secondary" onClick={() => setDialog('close')}>{text.actions.close}</Button>}
          {isOwner && <Button variant="secondary" onClick={() => setDialog('share')}>{text.actions.share}</Button>}
          {isOwner && <Button variant="ghost" onClick={() => setDialog('delete')}>{text.actions.delete}</Button>}
        </div>
      </header>
      <ErrorBanner data={{ hasError: banner !== null, msg: banner ?? undefined }} onDismiss={() => setBanner(null)} />
      {!canEdit && <p className="forms-notice" role="note">{text.editor.readOnly}</p>}

      <section className="ui-card ui-section forms-link-card" aria-labelledby={`${linkId}-title`}>
        <h3 id={`${linkId}-title`} className="ui-section__title">{text.link.title}</h3>
        <div className="app-field forms-field">
          <label htmlFor={linkId}>{text.link.label}</label>
          <input id={linkId} className="ui-input forms-link-card__url" readOnly value={url} onFocus={(event) => event.target.select()} />
        </div>
        {form.status !== 'published' && <p className="ui-muted">{form.status === 'draft' ? text.link.draftHint : text.link.closedHint}</p>}
        <div className="forms-link-card__actions">
          <Button variant="secondary" onClick={() => void copy()}>{text.link.copy}</Button>
          <Button variant="secondary" icon={<IconMail size={18} />} disabled={form.status !== 'published' || !canEdit} onClick={() => setDialog('send')}>{text.link.send}</Button>
        </div>
      </section>

      <SegmentedFilter
        label={text.sections.label}
        options={[{ value: 'answers', label: text.sections.answers(form.submissions) }, { value: 'edit', label: text.sections.edit }]}
        value={section}
        onChange={setSection}
      />
      {section === 'edit' ? (
        <FormEditor draft={draft} onChange={setDraft} errors={errors} placeholders={placeholders} readOnly={!canEdit} />
      ) : (
        <SubmissionsPanel formId={form.id} formTitle={form.title} fields={form.fields} canDelete={canEdit} />
      )}

      <SendLinkDialog formId={form.id} open={dialog === 'send'} onClose={() => setDialog(null)} />
      <ShareDialog kind="form" id={form.id} name={form.title} open={dialog === 'share'} onClose={() => setDialog(null)} />
      <ConfirmDialog
        open={dialog === 'close'}
        title={text.actions.closeTitle}
        text={text.actions.closeText}
        confirmLabel={text.actions.close}
        busy={closing.isLoading}
        onConfirm={() => void onClose()}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={text.actions.deleteTitle}
        text={text.actions.deleteText}
        confirmLabel={text.actions.delete}
        busy={removing.isLoading}
        onConfirm={() => void onDelete()}
        onCancel={() => setDialog(null)}
      />
    </div>
  );
}
