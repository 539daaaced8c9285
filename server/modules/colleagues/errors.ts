import {
  ALREADY_INVITED_MESSAGE, ALREADY_MEMBER_MESSAGE, CANNOT_REMOVE_OWNER_MESSAGE, COLLEAGUE_NOT_FOUND_MESSAGE, EMAIL_TAKEN_ELSEWHERE_MESSAGE,
  INVITATION_GONE_MESSAGE, INVITATION_NOT_FOUND_MESSAGE, OWNER_ONLY_COLLEAGUES_MESSAGE,
} from '#shared/api/colleagues.ts';
import { HttpError } from '../../http/errors.ts';

/** The colleagues module's refusals (shared/api/colleagues.ts has their messages). */
export const ownerOnly = () => new HttpError(403, 'OWNER_ONLY_COLLEAGUES', OWNER_ONLY_COLLEAGUES_MESSAGE);
export const alreadyMember = () => new HttpError(409, 'ALREADY_MEMBER', ALREADY_MEMBER_MESSAGE);
export const emailTakenElsewhere = () => new HttpError(409, 'EMAIL_TAKEN_ELSEWHERE', EMAIL_TAKEN_ELSEWHERE_MESSAGE);
export const alreadyInvited = () => new HttpError(409, 'ALREADY_INVITED', ALREADY_INVITED_MESSAGE);
export const cannotRemoveOwner = () => new HttpError(409, 'CANNOT_REMOVE_OWNER', CANNOT_REMOVE_OWNER_MESSAGE);
export const colleagueNotFound = () => new HttpError(404, 'COLLEAGUE_NOT_FOUND', COLLEAGUE_NOT_FOUND_MESSAGE);
export const invitationNotFound = () => new HttpError(404, 'INVITATION_NOT_FOUND', INVITATION_NOT_FOUND_MESSAGE);
export const invitationGone = () => new HttpError(410, 'INVITATION_GONE', INVITATION_GONE_MESSAGE);

export const INVITATIONS_PER_DAY = 20;
export const tooManyInvitations = () =>
  new HttpError(429, 'TOO_MANY_INVITATIONS', `Tu empresa ya ha enviado ${INVITATIONS_PER_DAY} invitaciones en las últimas 24 horas. Inténtalo de nuevo mañana.`);
export const invitationNotSent = () =>
  new HttpError(502, 'INVITATION_NOT_SENT', 'No se ha podido enviar el correo de invitación. Inténtalo de nuevo en unos minutos.');
