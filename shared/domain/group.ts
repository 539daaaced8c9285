import { z } from 'zod';

/** An advisory firm's settings that shape the app for all its users (spec §3 User, §6). */
export const groupConfigSchema = z.object({
  defaultRoute: z.string().optional(),
  allowed_routes: z.array(z.string()).default([]),
  hidden_routes: z.array(z.string()).default([]),
  company_name: z.string().optional(),
  /** ISO currency code for money; EUR when absent. */
  currency: z.string().optional(),
  /** Credit unit names, 'singular|plural' (spec §9: split by '|'); 'slan|slans' when absent. */
  currencies: z.string().optional(),
});
export type GroupConfig = z.infer<typeof groupConfigSchema>;

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  config: groupConfigSchema,
});
export type Group = z.infer<typeof groupSchema>;
