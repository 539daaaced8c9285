import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { INVITATION_PAGE, INVITATION_TTL_DAYS, type AcceptInvitation, type Colleague, type Colleagues as ColleaguesView, type Invitation, type InvitationPreview } from '#shared/api/colleagues.ts';
import type { Language } from '#shared/domain/user.ts';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import {
  INVITATIONS_PER_DAY, alreadyInvited, alreadyMember, cannotRemoveOwner, colleagueNotFound, invitationNotFound, invitationNotSent, ownerOnly, tooManyInvitations,
} from './errors.ts';
import { issueInvitationToken } from './invitation-token.ts';
import { acceptInvitation, previewInvitation } from './joining.ts';
import { firmMember } from '../users/service.ts';
import { mailboxesByLinker } from '../mail/account-queries.ts';
import type { MailAccounts } from '../mail/accounts.ts';

export interface ColleaguesDeps {
  db: Kysely<Database>;
  now: () => Date;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The mailboxes a removed colleague linked are unlinked and their grants revoked (issue 39). */
  mailboxes: Pick<MailAccounts, 'unlinkMember' | 'revokeUnlinked'>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The caller as the firm's owner: its name and firm, or 403 for a member. */
interface Owner {
  userId: string;
  groupId: string;
  name: string;
  email: string;
  firmName: string;
}

/**
 * A firm's colleagues: who belongs to it, the owner's invitations and removals, and (joining.ts) the
 * public preview and acceptance of an invitation's link. Every owner-side query is scoped to the
 * caller's group, so another firm's ids are simply not found (404).
 */
export class Colleagues {
  constructor(readonly deps: ColleaguesDeps) {}

  async list(session: ActiveSession): Promise<ColleaguesView> {
    const { db } = this.deps;
    const users = await db
      .selectFrom('users')
      .select(['id', 'name', 'email', 'role', 'created_at'])
      .where('group_id', '=', session.groupId)
      .where('disabled_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const mailboxes = await mailboxesByLinker(db, session.groupId);
    const members: Colleague[] = users
      .map((user) => ({
        id: user.id, name: user.name, email: user.email, role: user.role === 'owner' ? ('owner' as const) : ('member' as const), joinedAt: user.created_at, isMe: user.id === session.userId,
        mailboxes: mailboxes.get(user.id) ?? [],
      }))
      // The owner first, then by joining date (the query's order, which a stable sort keeps).
      .sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
    const canManage = members.some((member) => member.isMe && member.role === 'owner');
    return { members, invitations: await this.pendingInvitations(session.groupId), canManage };
  }

  private async pendingInvitations(groupId: string, email?: string): Promise<Invitation[]> {
    let query = this.deps.db
      .selectFrom('colleague_invitations as i')
      .leftJoin('users as u', 'u.id', 'i.invited_by')
      .select(['i.id', 'i.email', 'i.created_at', 'i.expires_at', 'u.name as inviter_name', 'u.email as inviter_email'])
      .where('i.group_id', '=', groupId)
      .where('i.accepted_at', 'is', null)
      .where('i.revoked_at', 'is', null)
      .where('i.expires_at', '>', this.deps.now().toISOString());
    if (email !== undefined) query = query.where('i.email', '=', email);
    const rows = await query.orderBy('i.created_at', 'desc').orderBy('i.id').execute();
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      invitedBy: row.inviter_name !== null && row.inviter_email !== null ? { name: row.inviter_name, email: row.inviter_email } : null,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    }));
  }

  private async owner(session: ActiveSession): Promise<Owner> {
    const member = await firmMember(this.deps.db, session);
    if (member?.role !== 'owner') throw ownerOnly();
    return { userId: member.userId, groupId: member.groupId, name: member.name, email: member.email, firmName: member.firmName };
  }

  /**
   * Invites `email` (already checked by the contract's schema) to the caller's firm and mails the
   * link. A colleague removed earlier may be invited again; accepting re-activates them.
   *
   * Only the caller's own firm is looked at: an address that has an account with another firm is
   * invited, counted and mailed exactly as an unknown one, so the answer never tells whether another
   * firm has that user. Its holder learns at the link that it cannot join with it (joining.ts).
   */
  async invite(session: ActiveSession, rawEmail: string): Promise<Invitation> {
    const { db, now: clock } = this.deps;
    const owner = await this.owner(session);
    const email = rawEmail.trim().toLowerCase();
    const member = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .where('group_id', '=', owner.groupId)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    if (member) throw alreadyMember();
    if ((await this.pendingInvitations(owner.groupId, email)).length > 0) throw alreadyInvited();

    // A cap per firm, revoked invitations included, so the app cannot be used as a spam relay.
    const now = clock();
    const sentToday = await db
      .selectFrom('colleague_invitations')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('group_id', '=', owner.groupId)
      .where('created_at', '>', new Date(now.getTime() - DAY_MS).toISOString())
      .executeTakeFirstOrThrow();
    if (Number(sentToday.count) >= INVITATIONS_PER_DAY) throw tooManyInvitations();

    const { id, token, secretHash } = issueInvitationToken();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString();
    await db
      .insertInto('colleague_invitations')
      .values({ id, group_id: owner.groupId, email, token_hash: secretHash, invited_by: owner.userId, created_at: now.toISOString(), expires_at: expiresAt, accepted_at: null, accepted_user_id: null, revoked_at: null })
      .execute();
    await this.mailInvitation(owner, email, token, id);
    return { id, email, invitedBy: { name: owner.name, email: owner.email }, createdAt: now.toISOString(), expiresAt };
  }

  /** An invitation nobody received is no invitation: when the mail fails, the row goes and the owner is told. */
  private async mailInvitation(owner: Owner, to: string, token: string, id: string): Promise<void> {
    const link = `${this.deps.publicUrl}${INVITATION_PAGE}/${token}`;
    try {
      await this.deps.mailer.sendLink({
        purpose: 'colleague_invite',
        to,
        subject: `${owner.name} te invita a ${owner.firmName} en AutoAsesor`,
        text:
          `${owner.name} (${owner.email}) te invita a unirte a ${owner.firmName} en AutoAsesor, donde compartiréis robots, historial y créditos.\n\n` +
          `Abre este enlace para elegir tu nombre y tu contraseña (válido durante ${INVITATION_TTL_DAYS} días):\n${link}\n\n` +
          'Si no esperabas esta invitación, ignora este correo.',
        link,
      });
    } catch (error) {
      this.deps.log.error({ err: error }, 'No se ha podido enviar una invitación a la empresa');
      await this.deps.db.deleteFrom('colleague_invitations').where('id', '=', id).execute();
      throw invitationNotSent();
    }
  }

  /** Revokes a pending invitation of the caller's firm; its link stops working. Already spent: nothing changes. */
  async revoke(session: ActiveSession, invitationId: string): Promise<void> {
    const owner = await this.owner(session);
    const { db, now } = this.deps;
    const row = await db.selectFrom('colleague_invitations').select('id').where('id', '=', invitationId).where('group_id', '=', owner.groupId).executeTakeFirst();
    if (!row) throw invitationNotFound();
    await db
      .updateTable('colleague_invitations')
      .set({ revoked_at: now().toISOString() })
      .where('id', '=', row.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Removes a member: no sign-in from now on (auth refuses a disabled user), every session and linked
   * PC's token revoked, and their schedules deleted so no robot keeps running in their name. Their runs
   * stay in the firm's history (flow_runs keep the user id). The mailboxes they linked are theirs, not
   * the firm's: unlinked in the same transaction (nothing more is sent from them, queued mails included)
   * and, once it commits, their grants revoked at the provider where it allows it. Launches and
   * schedules whose email config named one are refused with the reason in the history; failure
   * notices go from another of the firm's mailboxes or the server's mail.
   */
  async remove(session: ActiveSession, userId: string): Promise<void> {
    const owner = await this.owner(session);
    const { db } = this.deps;
    const target = await db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('id', '=', userId)
      .where('group_id', '=', owner.groupId)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    if (!target) throw colleagueNotFound();
    if (target.role === 'owner') throw cannotRemoveOwner();
    const now = this.deps.now();
    const unlinked = await db.transaction().execute(async (trx) => {
      const removed = await trx.updateTable('users').set({ disabled_at: now.toISOString(), updated_at: now.toISOString() }).where('id', '=', target.id).where('disabled_at', 'is', null).executeTakeFirst();
      if (Number(removed.numUpdatedRows) !== 1) throw colleagueNotFound(); // removed meanwhile
      await revokeUserSessions(trx, target.id, now);
      await trx.deleteFrom('device_tokens').where('user_id', '=', target.id).execute();
      await trx.deleteFrom('flow_schedules').where('user_id', '=', target.id).where('group_id', '=', owner.groupId).execute();
      return this.deps.mailboxes.unlinkMember(trx, owner.groupId, target.id);
    });
    await this.deps.mailboxes.revokeUnlinked(unlinked);
  }

  preview(token: string): Promise<InvitationPreview> {
    return previewInvitation(this.deps.db, token, this.deps.now());
  }

  /** Joins the firm with the link; the caller signs the new colleague in. */
  accept(token: string, body: AcceptInvitation, language: Language): Promise<string> {
    return acceptInvitation(this.deps.db, token, body, language, this.deps.now());
  }
}
