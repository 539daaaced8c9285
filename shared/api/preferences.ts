import { z } from 'zod/mini';

export const preferencesPath = '/api/preferences';

/** Stored preferences are small UI state; caps keep one account's row from slowing the database for all. */
export const PREFERENCES_MAX_BYTES = 64 * 1024;
export const PREFERENCES_MAX_KEYS = 200;

/** Free-form per-user UI preferences (open panels, table sorts...). Values are JSON. */
export const preferencesSchema = z.record(z.string().check(z.maxLength(100)), z.json());
export type Preferences = z.infer<typeof preferencesSchema>;

/** A PATCH merges these keys into the stored preferences; a null value removes the key. */
export const preferencesPatchSchema = preferencesSchema.check(
  z.refine((patch) => Object.keys(patch).length <= 100, { message: 'Demasiadas preferencias en una sola petición' }),
);
export const preferencesResponseSchema = z.object({ preferences: preferencesSchema });
