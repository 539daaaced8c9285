import { z } from 'zod/mini';

/**
 * The altas form's shape (spec §3 Form definition, §5 Form config): its fields and pages, the advisor's
 * configuration of them, and the form's public face. Part of the altas API (./altas.ts exports it all).
 */

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));

export const FIELD_TYPES = ['text', 'date', 'dropdown', 'checkbox', 'file'] as const;
/** userBefore: the advisor fills it (per group); client: the company fills it in the form. */
export const FIELD_WRITERS = ['userBefore', 'client'] as const;

export const validValueSchema = z.object({ key: text(100), text: text(200) });
export const formFieldSchema = z.object({
  fieldType: z.enum(FIELD_TYPES),
  title: text(120),
  required: z.optional(z.boolean()),
  /** A validator name of shared/validation ('nienif', 'naf', 'iban', 'email', 'tel', ...). */
  validate: z.optional(text(60)),
  validValues: z.optional(z.array(validValueSchema).check(z.maxLength(500))),
  /** The options depend on another field's value: dependentOptions[thatValue] are the choices. */
  dependentKey: z.optional(text(80)),
  dependentOptions: z.optional(z.record(z.string(), z.array(validValueSchema))),
  fieldWriter: z.enum(FIELD_WRITERS),
  /** The options come from the company ('CCC': its CCC list). */
  validValuesFromExtraFields: z.optional(z.object({ field: text(80) })),
  /** Several key/value rows (the company's CCC list). */
  multiKeyValue: z.optional(z.boolean()),
  /** Spec §3: not advisor-editable (the robot needs it; it stays required and with its writer). */
  locked: z.optional(z.boolean()),
});
export type FormField = z.infer<typeof formFieldSchema>;

export const formPageSchema = z.object({ title: text(120), fields: z.array(text(80)).check(z.maxLength(100)) });
export type FormPage = z.infer<typeof formPageSchema>;

export const formDefinitionSchema = z.object({
  flowId: z.string(),
  title: z.string(),
  url: z.nullable(z.string()),
  logo: z.nullable(z.string()),
  fieldsOrder: z.array(z.string()),
  fields: z.record(z.string(), formFieldSchema),
  defaultFormPages: z.array(formPageSchema),
});
export type FormDefinition = z.infer<typeof formDefinitionSchema>;

/** What the advisor may change per field (locked fields refuse required=false and a new writer). */
export const fieldOverrideSchema = z.strictObject({
  title: z.optional(text(120)),
  required: z.optional(z.boolean()),
  fieldWriter: z.optional(z.enum(FIELD_WRITERS)),
  validValues: z.optional(z.array(validValueSchema).check(z.maxLength(500))),
});
export const formConfigurationSchema = z.object({
  _id: z.string(),
  flowId: z.string(),
  name: z.string(),
  formPages: z.array(formPageSchema),
  fields: z.record(z.string(), fieldOverrideSchema),
});
export type FormConfiguration = z.infer<typeof formConfigurationSchema>;
export const formConfigurationUpdateSchema = z.strictObject({
  name: text(120).check(z.minLength(1, 'Este campo es obligatorio')),
  formPages: z.array(formPageSchema).check(z.minLength(1), z.maxLength(20)),
  fields: z.optional(z.record(z.string().check(z.maxLength(80)), fieldOverrideSchema)),
});

/** The form's public face (spec §5 Form config: title and URL required, logo optional). */
export const formSettingsSchema = z.object({
  title: z.nullable(z.string()),
  /** Stored and answered with FORM_URL_PREFIX, e.g. '/form/flows/asesoria-lopez'. */
  url: z.nullable(z.string()),
  /** The logo's address (formLogo), or null. */
  logo: z.nullable(z.string()),
});
export type FormSettings = z.infer<typeof formSettingsSchema>;
/** The multipart text fields of PUT formSettings; `url` may come with or without the prefix. */
export const formSettingsUpdateSchema = z.strictObject({
  title: text(120).check(z.minLength(1, 'Este campo es obligatorio')),
  url: text(120).check(z.minLength(1, 'Este campo es obligatorio')),
  /** 'true' drops the current logo when no new file comes. */
  removeLogo: z.optional(z.enum(['true', 'false'])),
});
/** The slug part of a form URL: lowercase letters, digits and dashes. */
export const FORM_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;
