import { z } from 'zod';

/** Field schemas shared by several requests, with the validators' Spanish messages (spec §5). */
export const emailField = z
  .string({ error: 'Este campo es obligatorio' })
  .trim()
  .min(1, 'Este campo es obligatorio')
  .max(254, 'Introduce una dirección de correo electrónico válida')
  .pipe(z.email({ error: 'Introduce una dirección de correo electrónico válida' }))
  .transform((email) => email.toLowerCase());

export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[A-ZÑ])(?=.*[^A-Za-z0-9ñÑ\s]).{8,}$/;
export const PASSWORD_MESSAGE =
  'La contraseña debe incluir al menos 8 caracteres, un número, una mayúscula y un símbolo especial';

export const newPasswordField = z
  .string({ error: 'Este campo es obligatorio' })
  .max(200, PASSWORD_MESSAGE)
  .regex(PASSWORD_PATTERN, PASSWORD_MESSAGE);

export const personNameField = z
  .string({ error: 'Este campo es obligatorio' })
  .trim()
  .min(1, 'Este campo es obligatorio')
  .max(120, 'El nombre no puede superar los 120 caracteres');
