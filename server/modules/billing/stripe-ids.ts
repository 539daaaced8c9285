/** A Stripe field that is an id or, expanded, the object: its id either way (null when absent). */
export function idOf(value: string | { id?: string } | null | undefined): string | null {
  if (value == null) return null;
  return typeof value === 'string' ? value : (value.id ?? null);
}

/** Stripe's seconds since the epoch as an ISO instant. */
export function isoOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
