import { useState } from 'react';
import type { Colleague, Invitation } from '#shared/api/colleagues.ts';
import { useColleaguesQuery, useRemoveColleagueMutation, useRevokeInvitationMutation } from '../../api/colleagues.ts';
import { useToast } from '../../app/hooks.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { errorMessage } from '../../ui/forms.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { colleagues as text } from '../../i18n/es-colleagues.ts';
import { InvitationList, MemberList } from './ColleagueLists.tsx';
import { InviteForm } from './InviteForm.tsx';
import './colleagues.css';

/**
 * 'Compañeros de tu empresa': every member sees who shares the firm's robots, history, machines
 * and credits; only the owner (canManage, decided by the server) invites, revokes and removes.
 */
export function ColleaguesSection() {
  const { data, isLoading, isError, refetch } = useColleaguesQuery();
  const [revoke] = useRevokeInvitationMutation();
  const [remove, { isLoading: removingBusy }] = useRemoveColleagueMutation();
  const [revokingId, setRevokingId] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Colleague | null>(null);
  const toast = useToast();

  const revokeInvitation = async (invitation: Invitation) => {
    setRevokingId(invitation.id);
    const result = await revoke(invitation.id);
    setRevokingId(null);
    if (result.error) toast.error(errorMessage(result.error, text.revoke.failed));
    else toast.success(text.revoke.done(invitation.email));
  };

  const confirmRemove = async () => {
    if (!removing) return;
    const result = await remove(removing.id);
    if (result.error) toast.error(errorMessage(result.error, text.remove.failed));
    else toast.success(text.remove.done(removing.name));
    setRemoving(null);
  };

  return (
    <section className="app-card colleagues" aria-labelledby="colleagues-title">
      <h2 id="colleagues-title">{text.section.title}</h2>
      <p className="colleagues__note">{text.section.shares}</p>
      {isLoading && <Spinner label={text.section.loading} />}
      {isError && !data && (
        <div role="alert" className="app-form__alert">
          <p>{text.section.loadFailed}</p>
          <Button variant="secondary" onClick={() => void refetch()}>{text.section.retry}</Button>
        </div>
      )}
      {data && (
        <>
          <MemberList members={data.members} canManage={data.canManage} onRemove={setRemoving} />
          <InvitationList invitations={data.invitations} canManage={data.canManage} revokingId={revokingId} onRevoke={(invitation) => void revokeInvitation(invitation)} />
          {data.canManage ? <InviteForm /> : <p className="colleagues__note">{text.section.readOnly}</p>}
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={removing ? text.remove.title(removing.name) : ''}
        text={removing ? text.remove.text(removing.name, removing.mailboxes) : ''}
        confirmLabel={text.remove.confirm}
        busy={removingBusy}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
