import { COLLEAGUE_ROLE_LABELS } from '#shared/api/colleagues.ts';
import type { Colleague, Invitation } from '#shared/api/colleagues.ts';
import { formatMadridDate } from '#shared/time/madrid.ts';
import { Button } from '../../ui/Button.tsx';
import { colleagues as text } from '../../i18n/es-colleagues.ts';

export interface MemberListProps {
  members: readonly Colleague[];
  /** Only the owner gets the 'Quitar' buttons; never on the owner's own row. */
  canManage: boolean;
  onRemove: (member: Colleague) => void;
}

/** The firm's members: name ('Tú' on the caller), email and role. */
export function MemberList({ members, canManage, onRemove }: MemberListProps) {
  return (
    <section aria-labelledby="colleagues-members">
      <h3 id="colleagues-members">{text.section.membersTitle}</h3>
      <ul className="colleagues__list">
        {members.map((member) => (
          <li key={member.id} className="colleagues__row">
            <div className="colleagues__who">
              <span className="colleagues__name">
                {member.name}
                {member.isMe && <>{' '}<span className="colleagues__you">({text.section.you})</span></>}
              </span>
              <span className="colleagues__detail">{member.email}</span>
            </div>
            <span className="colleagues__role">{COLLEAGUE_ROLE_LABELS[member.role]}</span>
            {canManage && member.role !== 'owner' && !member.isMe && (
              <Button variant="secondary" aria-label={text.remove.label(member.name)} onClick={() => onRemove(member)}>
                {text.remove.action}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface InvitationListProps {
  invitations: readonly Invitation[];
  canManage: boolean;
  /** The invitation being revoked right now, whose button shows it is busy. */
  revokingId: string | null;
  onRevoke: (invitation: Invitation) => void;
}

/** Pending invitations: who was invited, by whom and until when the link works. Nothing when there are none. */
export function InvitationList({ invitations, canManage, revokingId, onRevoke }: InvitationListProps) {
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="colleagues-invitations">
      <h3 id="colleagues-invitations">{text.section.invitationsTitle}</h3>
      <ul className="colleagues__list">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="colleagues__row">
            <div className="colleagues__who">
              <span className="colleagues__name">{invitation.email}</span>
              <span className="colleagues__detail">
                {[invitation.invitedBy && text.section.invitedBy(invitation.invitedBy.name), text.section.expiresOn(formatMadridDate(new Date(invitation.expiresAt)))]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </div>
            {canManage && (
              <Button
                variant="secondary"
                aria-label={text.revoke.label(invitation.email)}
                loading={revokingId === invitation.id}
                onClick={() => onRevoke(invitation)}
              >
                {text.revoke.action}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
