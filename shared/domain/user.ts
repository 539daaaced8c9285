import { z } from 'zod/mini';
import { groupSchema } from './group.ts';

export const languageSchema = z.enum(['es', 'en', 'ca']);
export type Language = z.infer<typeof languageSchema>;

/** What the renderer knows about the signed-in user (spec §3 User.userData). */
export const userDataSchema = z.object({
  uid: z.string(),
  email: z.string(),
  name: z.string(),
  language: languageSchema,
  emailValidated: z.boolean(),
  group: groupSchema,
  config: z.record(z.string(), z.unknown()),
  usedSlans: z.number(),
});
export type UserData = z.infer<typeof userDataSchema>;
