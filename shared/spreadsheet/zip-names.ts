/**
 * An entry of a zip directory by its name as a workbook's parts name it: exact, else ignoring case and a
 * leading '/' (writers differ in both). Names in the map are stored with '/' separators.
 */
export function zipEntryNamed<Entry>(entries: ReadonlyMap<string, Entry>, name: string): Entry | undefined {
  const wanted = name.replace(/^\/+/, '');
  const exact = entries.get(wanted);
  if (exact) return exact;
  const lower = wanted.toLowerCase();
  for (const [key, entry] of entries) if (key.toLowerCase() === lower) return entry;
  return undefined;
}
