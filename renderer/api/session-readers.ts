import { okResponseSchema, sessionResponseSchema, sessionStateResponseSchema } from '#shared/api/auth.ts';
import type { SessionStateResponse } from '#shared/api/auth.ts';
import type { UserData } from '#shared/domain/user.ts';

/*
 * The checks of the session calls' successful answers. session.ts loads this module when a call
 * succeeds, so zod is not part of the entry bundle: a signed-out first visit (/auth) never needs it.
 */

export const readUserData = (body: unknown): UserData | undefined => sessionResponseSchema.safeParse(body).data?.userData;

export const readOk = (body: unknown): { ok: true } | undefined => okResponseSchema.safeParse(body).data;

export const readSessionState = (body: unknown): SessionStateResponse | undefined => sessionStateResponseSchema.safeParse(body).data;
