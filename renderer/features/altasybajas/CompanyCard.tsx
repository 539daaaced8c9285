import { useId, useState } from 'react';
import type { ClientCompany, CompanyGroup } from '#shared/api/altas.ts';
import { MAIL_FAILED_MESSAGE, emailSentMessage } from '#shared/api/altas.ts';
import { TOAST_DURATION_MS, useAppDispatch, useToast } from '../../app/hooks.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, IconChevronDown, IconMail, IconPlus } from '../../ui/index.ts';
import type { IconProps } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { companiesChanged, useDeleteClientMutation, useDeleteGroupMutation, useSendCompanyEmailMutation } from './altasApi.ts';
import { readServerFailure } from './altasModel.ts';

// The shared icon set has no pencil or copy glyph; these two follow its 24-unit stroke style.
function IconEdit({ size = 16 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M12 20h9" /><path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </svg>
  );
}

function IconCopy({ size = 16 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <rect x="9" y="9" width="12" height="12" rx="2" /><path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
    </svg>
  );
}

export interface CompanyCardProps {
  company: ClientCompany;
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
  onEdit: () => void;
  onNewGroup: () => void;
  onEditGroup: (group: CompanyGroup) => void;
  onCopyGroup: (group: CompanyGroup) => void;
}

/** One company: a header button that opens its groups, edit, delete and 'Enviar Email'. */
export function CompanyCard({ company, expanded, onExpandedChange, onEdit, onNewGroup, onEditGroup, onCopyGroup }: CompanyCardProps) {
  const toast = useToast();
  const dispatch = useAppDispatch();
  const panelId = useId();
  const name = company.fieldsValues.nombreEmpresa;
  const [sendEmail, sending] = useSendCompanyEmailMutation();
  const [deleteClient, deleting] = useDeleteClientMutation();
  const [deleteGroup] = useDeleteGroupMutation();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmGroups, setConfirmGroups] = useState(false);
  const [deletingGroups, setDeletingGroups] = useState(false);
  const [selectedGroups, setSelectedGroups] = useState<ReadonlySet<string>>(() => new Set());
  const chosenGroups = company.groups.filter((group) => selectedGroups.has(group.key));

  const send = async () => {
    try {
      const answer = await sendEmail(company._id).unwrap();
      toast.success(emailSentMessage(answer.email), TOAST_DURATION_MS.emailSuccess);
    } catch (error) {
      const failure = readServerFailure(error);
      // Spec §4 Company actions: without a group it cannot be sent; the company opens to show where to add one.
      if (failure.status === 409) {
        onExpandedChange(true);
        toast.error(failure.message ?? MAIL_FAILED_MESSAGE);
      } else toast.error(MAIL_FAILED_MESSAGE);
    }
  };

  const remove = async () => {
    try {
      await deleteClient(company._id).unwrap();
      toast.success(text.companies.deleted);
    } catch {
      toast.error(text.companies.deleteFailed);
    }
    setConfirmDelete(false);
  };

  const removeGroups = async () => {
    setDeletingGroups(true);
    let failed = false;
    for (const group of chosenGroups) {
      try {
        await deleteGroup({ companyId: company._id, key: group.key }).unwrap();
      } catch {
        failed = true;
      }
    }
    setDeletingGroups(false);
    setConfirmGroups(false);
    setSelectedGroups(new Set());
    dispatch(companiesChanged());
    if (failed) toast.error(text.failed);
    else toast.success(text.companies.groupsDeleted);
  };

  const toggleGroup = (key: string, on: boolean) =>
    setSelectedGroups((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  return (
    <li className="ui-card altas-company">
      <div className="altas-company__head">
        <button
          type="button"
          className="altas-company__toggle"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={() => onExpandedChange(!expanded)}
        >
          <IconChevronDown size={18} className={`altas-company__chevron${expanded ? ' altas-company__chevron--open' : ''}`} />
          <span className="altas-company__name">{name}</span>
          <span className="ui-muted altas-company__count">{text.companies.groupCount(company.groups.length)}</span>
        </button>
        <div className="altas-company__actions">
          <Button variant="ghost" icon={<IconEdit />} aria-label={text.companies.edit(name)} onClick={onEdit} />
          <Button variant="ghost" aria-label={text.companies.remove(name)} onClick={() => setConfirmDelete(true)}>{text.companies.deleteConfirm}</Button>
          <Button variant="secondary" icon={<IconMail size={16} />} loading={sending.isLoading} onClick={() => void send()}>{text.companies.sendEmail}</Button>
        </div>
      </div>
      {expanded && (
        <div id={panelId} className="altas-company__groups" role="group" aria-label={text.companies.groupsOf(name)}>
          <ul className="altas-groups">
            <li>
              <button type="button" className="altas-groups__new" onClick={onNewGroup}>
                <IconPlus size={18} />
                <span>{text.companies.newGroup}</span>
              </button>
            </li>
            {company.groups.map((group) => (
              <li key={group.key} className="altas-chip">
                <input
                  type="checkbox"
                  aria-label={text.companies.selectGroup(group.text)}
                  checked={selectedGroups.has(group.key)}
                  onChange={(event) => toggleGroup(group.key, event.target.checked)}
                />
                <span className="altas-chip__name">{group.text}</span>
                <button type="button" className="ui-icon-button" aria-label={text.companies.editGroup(group.text)} onClick={() => onEditGroup(group)}>
                  <IconEdit />
                </button>
                <button type="button" className="ui-icon-button" aria-label={text.companies.copyGroup(group.text)} onClick={() => onCopyGroup(group)}>
                  <IconCopy />
                </button>
              </li>
            ))}
          </ul>
          {company.groups.length === 0 && <p className="ui-muted">{text.companies.noGroups}</p>}
          <Button variant="danger" disabled={chosenGroups.length === 0} onClick={() => setConfirmGroups(true)}>{text.companies.deleteGroups}</Button>
        </div>
      )}
      <ConfirmDialog
        open={confirmDelete}
        title={text.companies.deleteTitle}
        text={text.companies.deleteText(name)}
        confirmLabel={text.companies.deleteConfirm}
        busy={deleting.isLoading}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      />
      <ConfirmDialog
        open={confirmGroups}
        title={text.companies.deleteGroupsTitle}
        text={text.companies.deleteGroupsText(chosenGroups.length)}
        confirmLabel={text.companies.deleteConfirm}
        busy={deletingGroups}
        onConfirm={() => void removeGroups()}
        onCancel={() => setConfirmGroups(false)}
      />
    </li>
  );
}
