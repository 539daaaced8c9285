import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AcceptInvitation, InvitationPreview } from '#shared/api/colleagues.ts';
import type { Language } from '#shared/domain/user.ts';
import { PASSWORD_MESSAGE, PASSWORD_PATTERN } from '#shared/api/fields.ts';
import type { Database } from '../../db/schema.ts';
import { validationError } from '../../http/errors.ts';
import { assertStrongPassword } from '../auth/password-strength.ts';
import { hashPassword } from '../auth/passwords.ts';
import { alreadyMember, emailTakenElsewhere, invitationGone, invitationNotFound } from './errors.ts';
import { parseInvitationToken, secretMatches } from './invitation-token.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

/** The public half of an invitation: what its link shows, and joining the firm with it. */

interface InvitationRow {
  id: string;
  group_id: string;
  email: string;
  token_hash: string;
  invited_by: string | null;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

/**
 * The invitation a link names, still usable at `now`: 404 when the token is not one of ours (bad
 * format, unknown id, wrong secret), 410 when it was accepted, revoked or has expired.
 */
async function usableInvitation(db: Kysely<Database>, token: string, now: Date): Promise<InvitationRow> {
  const parsed = parseInvitationToken(token);
  if (!parsed) throw invitationNotFound();
  const row = await db
    .selectFrom('colleague_invitations')
    .select(['id', 'group_id', 'email', 'token_hash', 'invited_by', 'expires_at', 'accepted_at', 'revoked_at'])
    .where('id', '=', parsed.id)
    .executeTakeFirst();
  if (!row || !secretMatches(parsed.secret, row.token_hash)) throw invitationNotFound();
  if (row.accepted_at !== null || row.revoked_at !== null || row.expires_at <= now.toISOString()) throw invitationGone();
  return row;
}

/**
 * What the link shows its holder. An invitation may name an address that has an account with another
 * firm (the inviter is not told, service.ts): the holder is told here, before choosing a password,
 * that it cannot join with it; accepting anyway answers 409 EMAIL_TAKEN_ELSEWHERE and spends nothing.
 */
export async function previewInvitation(db: Kysely<Database>, token: string, now: Date): Promise<InvitationPreview> {
  const invitation = await usableInvitation(db, token, now);
  const firm = await db.selectFrom('groups').select('name').where('id', '=', invitation.group_id).executeTakeFirstOrThrow();
  const inviter = invitation.invited_by
    ? await db.selectFrom('users').select('name').where('id', '=', invitation.invited_by).executeTakeFirst()
    : undefined;
  const holder = await db.selectFrom('users').select('group_id').where('email', '=', invitation.email).executeTakeFirst();
  const accountElsewhere = holder !== undefined && holder.group_id !== invitation.group_id;
  return { firmName: firm.name, email: invitation.email, invitedBy: inviter?.name ?? null, expiresAt: invitation.expires_at, accountElsewhere };
}

/**
 * Joins the invitation's firm as a member and returns the user's id. The invitation is claimed with a
 * guarded update in the same transaction that creates the user, so of two accepts at once only one
 * writes anything; the other gets 410. A colleague the owner removed earlier is re-activated (same
 * user, new name and password) rather than created again. The link proves the mailbox, so the email
 * counts as validated.
 */
export async function acceptInvitation(db: Kysely<Database>, token: string, body: AcceptInvitation, language: Language, now: Date): Promise<string> {
  const invitation = await usableInvitation(db, token, now);
  // The sign-up rules: the format (shared/api/fields.ts), then the guessability check.
  if (!PASSWORD_PATTERN.test(body.password)) throw validationError([{ path: 'password', message: PASSWORD_MESSAGE }]);
  await assertStrongPassword(body.password, 'password', [invitation.email, body.name]);

  const passwordHash = await hashPassword(body.password);
  const nowIso = now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      // The claim comes first, so the loser of two accepts at once hears 410 whatever the winner wrote.
      const claimed = await trx
        .updateTable('colleague_invitations')
        .set({ accepted_at: nowIso })
        .where('id', '=', invitation.id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', nowIso)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw invitationGone();

      const existing = await trx.selectFrom('users').select(['id', 'group_id', 'disabled_at']).where('email', '=', invitation.email).executeTakeFirst();
      const rejoining = existing?.group_id === invitation.group_id && existing.disabled_at !== null;
      if (existing && !rejoining) throw existing.group_id === invitation.group_id ? alreadyMember() : emailTakenElsewhere();
      const userId = rejoining ? existing.id : randomUUID();
      if (rejoining) {
        // Only while still removed from this firm: a concurrent change wins and nothing is written.
        const reactivated = await trx
          .updateTable('users')
          .set({ name: body.name, password_hash: passwordHash, email_validated: 1, role: 'member', disabled_at: null, updated_at: nowIso })
          .where('id', '=', userId)
          .where('group_id', '=', invitation.group_id)
          .where('disabled_at', 'is not', null)
          .executeTakeFirst();
        if (Number(reactivated.numUpdatedRows) !== 1) throw alreadyMember();
      } else {
        await trx
          .insertInto('users')
          .values({
            id: userId,
            group_id: invitation.group_id,
            email: invitation.email,
            name: body.name,
            password_hash: passwordHash,
            language,
            email_validated: 1,
            config: '{}',
            used_slans: 0,
            role: 'member',
            created_at: nowIso,
            updated_at: nowIso,
          })
          .execute();
      }
      await trx.updateTable('colleague_invitations').set({ accepted_user_id: userId }).where('id', '=', invitation.id).execute();
      return userId;
    });
  } catch (error) {
    // The email was registered meanwhile (sign-up or another firm's invitation): nothing was written.
    if (isUniqueViolation(error)) throw emailTakenElsewhere();
    throw error;
  }
}
