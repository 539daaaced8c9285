import { z } from 'zod/mini';

/** An advisory firm's settings that shape the app for all its users (spec §3 User, §6). */
export const groupConfigSchema = z.object({
  defaultRoute: z.optional(z.string()),
  allowed_routes: z._default(z.array(z.string()), []),
  hidden_routes: z._default(z.array(z.string()), []),
  company_name: z.optional(z.string()),
  /** ISO currency code for money; EUR when absent. */
  currency: z.optional(z.string()),
  /** Credit unit names, 'singular|plural' (spec §9: split by '|'); 'slan|slans' when absent. */
  currencies: z.optional(z.string()),
});
export type GroupConfig = z.infer<typeof groupConfigSchema>;

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  config: groupConfigSchema,
});
export type Group = z.infer<typeof groupSchema>;
