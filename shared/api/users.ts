import { z } from 'zod/mini';
import { emailField, newPasswordField, personNameField } from './fields.ts';
import { languageSchema } from '../domain/user.ts';

export const registerRequestSchema = z.object({
  name: personNameField,
  email: emailField,
  password: newPasswordField,
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const updateProfileRequestSchema = z
  .strictObject({
    name: z.optional(personNameField),
    language: z.optional(languageSchema),
    currentPassword: z.optional(z.string().check(z.maxLength(200))),
    newPassword: z.optional(newPasswordField),
  })
  .check(
    z.refine((body) => !body.newPassword || body.currentPassword, {
      path: ['currentPassword'],
      message: 'Introduce tu contraseña actual para cambiarla',
    }),
  );
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const emailCheckResponseSchema = z.object({ exists: z.boolean() });
export type EmailCheckResponse = z.infer<typeof emailCheckResponseSchema>;
