import { z } from 'zod';
import { emailField, newPasswordField, personNameField } from './fields.ts';
import { languageSchema } from '../domain/user.ts';

export const usersPaths = {
  register: '/api/users',
  update: '/api/users',
  me: '/api/users/me',
  emailCheck: (email: string) => `/api/users/emailcheck/${encodeURIComponent(email)}`,
} as const;

export const registerRequestSchema = z.object({
  name: personNameField,
  email: emailField,
  password: newPasswordField,
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const updateProfileRequestSchema = z
  .object({
    name: personNameField.optional(),
    language: languageSchema.optional(),
    currentPassword: z.string().max(200).optional(),
    newPassword: newPasswordField.optional(),
  })
  .strict()
  .refine((body) => !body.newPassword || body.currentPassword, {
    path: ['currentPassword'],
    message: 'Introduce tu contraseña actual para cambiarla',
  });
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const emailCheckResponseSchema = z.object({ exists: z.boolean() });
export type EmailCheckResponse = z.infer<typeof emailCheckResponseSchema>;
