import { z } from 'zod/mini';

/**
 * Colleagues (issue 26): the firm's owner invites advisors by email; they join the same group and
 * share its robots, history, shared machines and credits. The link is single use and expires after
 * INVITATION_TTL_DAYS; it carries the invitation's id and a random secret of which only the hash is
 * stored. The owner can revoke an invitation and remove a colleague (who can no longer sign in; their
 * schedules are deleted, their runs stay in the firm's history, the mailboxes they linked are unlinked).
 */
export const colleaguesPaths = {
  /** GET -> Colleagues: the firm's members and pending invitations (every member may read it). */
  colleagues: '/api/colleagues',
  /** DELETE (owner): removes a member, unlinking the mailboxes they linked (revoked at the provider). 409 CANNOT_REMOVE_OWNER for the owner. */
  colleague: '/api/colleagues/:userId',
  /**
   * POST NewInvitation (owner) -> Invitation (201), emailed with its link. 409 ALREADY_MEMBER / ALREADY_INVITED (the
   * caller's own firm only: an address with an account at another firm is invited like any other, so nothing tells
   * that it exists); 429 TOO_MANY_INVITATIONS past the firm's daily cap (every invitation sent counts), RATE_LIMITED
   * past the per-minute limit.
   */
  invitations: '/api/colleagues/invitations',
  /** DELETE (owner): revokes a pending invitation; its link stops working. */
  invitation: '/api/colleagues/invitations/:id',
  /** Public. GET -> InvitationPreview; 410 INVITATION_GONE when expired, used or revoked; 404 when unknown. */
  invitationByToken: '/api/invitations/:token',
  /** Public. POST AcceptInvitation -> 201 with the session cookies and the user data (as sign-up does). */
  acceptInvitation: '/api/invitations/:token/accept',
} as const;

export const INVITATION_TTL_DAYS = 7;
/** The web app's page the emailed link opens: /invitacion/<token>. */
export const INVITATION_PAGE = '/invitacion';

export const OWNER_ONLY_COLLEAGUES_MESSAGE = 'Solo el titular de la cuenta puede invitar o quitar compañeros.';
export const ALREADY_MEMBER_MESSAGE = 'Esa persona ya forma parte de tu empresa';
/** Told to the invited person (the link's holder), never to the inviter. */
export const EMAIL_TAKEN_ELSEWHERE_MESSAGE =
  'Tu email ya tiene una cuenta de AutoAsesor en otra empresa, así que no puedes unirte a esta con él. Entra con esa cuenta, o pide a quien te invitó que te invite con otra dirección.';
export const ALREADY_INVITED_MESSAGE = 'Ya hay una invitación pendiente para ese email';
export const CANNOT_REMOVE_OWNER_MESSAGE = 'No se puede quitar al titular de la cuenta';
export const COLLEAGUE_NOT_FOUND_MESSAGE = 'No se ha encontrado a ese compañero';
export const INVITATION_NOT_FOUND_MESSAGE = 'Esta invitación no existe';
export const INVITATION_GONE_MESSAGE = 'Esta invitación ha caducado, ya se ha usado o se ha retirado. Pide una nueva a quien te invitó.';
export const ACCOUNT_REMOVED_MESSAGE = 'Tu acceso a esta empresa se ha retirado. Habla con quien la registró.';

export const COLLEAGUE_ROLES = ['owner', 'member'] as const;
export type ColleagueRole = (typeof COLLEAGUE_ROLES)[number];
export const COLLEAGUE_ROLE_LABELS: Record<ColleagueRole, string> = { owner: 'Titular', member: 'Asesor' };

export const colleagueSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(COLLEAGUE_ROLES),
  joinedAt: z.string(),
  isMe: z.boolean(),
  /**
   * The addresses of the mailboxes this member linked (every advisor sees the firm's mail accounts).
   * Removing the member unlinks them and revokes AutoAsesor's permission: they are the person's.
   */
  mailboxes: z.array(z.string()),
});
export type Colleague = z.infer<typeof colleagueSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  invitedBy: z.nullable(z.object({ name: z.string(), email: z.string() })),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const colleaguesSchema = z.object({
  members: z.array(colleagueSchema),
  /** Pending only (not accepted, revoked or expired). */
  invitations: z.array(invitationSchema),
  canManage: z.boolean(),
});
export type Colleagues = z.infer<typeof colleaguesSchema>;

export const newInvitationSchema = z.strictObject({ email: z.email('Introduce una dirección de correo electrónico válida') });
export type NewInvitation = z.infer<typeof newInvitationSchema>;

/** <invitation id>.<secret>: base64url, bounded so a hostile path is refused before any lookup. */
export const invitationTokenSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}\.[A-Za-z0-9_-]{32,128}$/, INVITATION_NOT_FOUND_MESSAGE));

export const invitationPreviewSchema = z.object({
  firmName: z.string(),
  email: z.string(),
  invitedBy: z.nullable(z.string()),
  expiresAt: z.string(),
  /**
   * The invited email already has an account with another firm, so it cannot join with this link
   * (EMAIL_TAKEN_ELSEWHERE_MESSAGE). Only the link's holder sees it: the link went to that mailbox.
   */
  accountElsewhere: z.boolean(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** The invited email is the invitation's; the new colleague picks a name and a password (the sign-up rules). */
export const acceptInvitationSchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1, 'Indica tu nombre'), z.maxLength(100, 'Máximo 100 caracteres')),
  password: z.string().check(z.minLength(1, 'Indica una contraseña'), z.maxLength(200)),
});
export type AcceptInvitation = z.infer<typeof acceptInvitationSchema>;
