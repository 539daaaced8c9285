/**
 * The server refuses passwords that attackers try first (common, leaked or built from the user's own
 * name or email), even when they follow the format rule (PASSWORD_MESSAGE in shared/api/fields.ts).
 * Only the message lives here: the dictionary stays on the server, out of the renderer's bundle.
 */
export const COMMON_PASSWORD_MESSAGE =
  'Esta contraseña es demasiado común o fácil de adivinar (aparece en listas de contraseñas filtradas o se parece a tu nombre o email). Elige otra.';
