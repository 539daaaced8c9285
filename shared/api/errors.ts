import { z } from 'zod/mini';

/** One invalid field: where it is ('email', 'items.0.name') and what is wrong, in Spanish. */
export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** Every non-2xx JSON response of the API has this shape. */
export const apiErrorSchema = z.object({
  statusCode: z.number(),
  code: z.string(),
  message: z.string(),
  issues: z.optional(z.array(fieldIssueSchema)),
  /** Set on a 401 when the session ended for a reason worth telling the user. */
  logoutReason: z.optional(z.string()),
  /** Facts a screen needs to explain the error (a 402's balance and estimated cost). */
  details: z.optional(z.record(z.string(), z.unknown())),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/**
 * Turns a zod failure into the field issues the API returns (first message per path). Takes the core
 * error type, so failures of zod/mini schemas and of classic zod schemas both fit.
 */
export function toFieldIssues(error: z.core.$ZodError): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || '(body)';
    if (seen.has(path)) continue;
    seen.add(path);
    issues.push({ path, message: issue.message });
  }
  return issues;
}
