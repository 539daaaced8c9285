import { z } from 'zod/mini';
import { emailField, newPasswordField } from './fields.ts';
import { userDataSchema } from '../domain/user.ts';

export const loginRequestSchema = z.object({
  email: emailField,
  password: z.string({ error: 'Este campo es obligatorio' }).check(z.minLength(1, 'Este campo es obligatorio'), z.maxLength(200)),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const sessionResponseSchema = z.object({ userData: userDataSchema });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/**
 * The start-up restore's answer: the user, or null when there is no session (a signed-out first load
 * is normal, so it is not an error the browser would log). `logoutReason` when a stolen refresh
 * token ended the session family.
 */
export const sessionStateResponseSchema = z.object({ userData: z.nullable(userDataSchema), logoutReason: z.optional(z.string()) });
export type SessionStateResponse = z.infer<typeof sessionStateResponseSchema>;

export const resetPassRequestSchema = z.object({ email: emailField });
export type ResetPassRequest = z.input<typeof resetPassRequestSchema>;

const linkTokenField = z.string().check(z.minLength(16, 'El enlace no es válido'), z.maxLength(200, 'El enlace no es válido'));

/** Without a password it only checks that the link's token is still valid. */
export const resetPassCheckRequestSchema = z.object({
  token: linkTokenField,
  password: z.optional(newPasswordField),
});
export type ResetPassCheckRequest = z.input<typeof resetPassCheckRequestSchema>;

/** Without a token it sends the validation link; with the link's token it marks the email as validated. */
export const emailValidationRequestSchema = z.object({
  token: z.optional(linkTokenField),
});
export type EmailValidationRequest = z.input<typeof emailValidationRequestSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });
