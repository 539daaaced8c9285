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
  /** 'owner' registered the firm and manages its plan and colleagues; 'member' joined by invitation. */
  role: z.enum(['owner', 'member']),
  /** A member of the server's support team (the ticket admin view). */
  supportAgent: z.boolean(),
});
export type UserData = z.infer<typeof userDataSchema>;
