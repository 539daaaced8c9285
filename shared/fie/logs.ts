/** A log line as the flow logs store it (spec §3, Flow log: level, timestamp, text). */
export interface FieLogLine {
  level: string;
  /** ISO-8601; compared as text, so all lines must share the format. */
  timestamp: string;
  text: string;
}

/** The newest error-level line that mentions the worker's NIF (spec §8), or null. */
export function lastErrorFor(nif: string | null, logs: readonly FieLogLine[]): string | null {
  if (!nif) return null;
  const needle = nif.toUpperCase();
  let newest: FieLogLine | null = null;
  for (const line of logs) {
    if (line.level.toLowerCase() !== 'error' || !line.text.toUpperCase().includes(needle)) continue;
    if (!newest || line.timestamp > newest.timestamp) newest = line;
  }
  return newest?.text ?? null;
}
