/** A JSON text column read back: its value, or `fallback` when it is null or does not parse (a damaged row). */
export function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
