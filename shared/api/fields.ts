import { z } from 'zod/mini';

/** Field schemas shared by several requests, with the validators' Spanish messages (spec §5). */
export const emailField = z.pipe(
  z.pipe(
    z
      .string({ error: 'Este campo es obligatorio' })
      .check(z.trim(), z.minLength(1, 'Este campo es obligatorio'), z.maxLength(254, 'Introduce una dirección de correo electrónico válida')),
    z.email({ error: 'Introduce una dirección de correo electrónico válida' }),
  ),
  z.transform((email: string) => email.toLowerCase()),
);

export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[A-ZÑ])(?=.*[^A-Za-z0-9ñÑ\s]).{8,}$/;
export const PASSWORD_MESSAGE =
  'La contraseña debe incluir al menos 8 caracteres, un número, una mayúscula y un símbolo especial';

export const newPasswordField = z
  .string({ error: 'Este campo es obligatorio' })
  .check(z.maxLength(200, PASSWORD_MESSAGE), z.regex(PASSWORD_PATTERN, PASSWORD_MESSAGE));

export const personNameField = z
  .string({ error: 'Este campo es obligatorio' })
  .check(
    z.trim(),
    z.minLength(1, 'Este campo es obligatorio'),
    z.maxLength(120, 'El nombre no puede superar los 120 caracteres'),
  );
