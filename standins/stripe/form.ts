/**
 * Stripe's request encoding: form bodies and queries in bracket notation (`line_items[0][price]=…`,
 * `expand[]=data.product`, `metadata[group_id]=…`), turned into nested objects and arrays, as Stripe
 * reads them. Values stay strings; the routes convert what they need.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export function parseStripeForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const segments = splitKey(key);
    if (segments === null) continue;
    let node: FormObject = root;
    segments.forEach((segment, index) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (index === segments.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next !== 'object' || Array.isArray(next)) node[name] = {};
      node = node[name] as FormObject;
    });
  }
  return arraysOf(root) as FormObject;
}

/** `a[b][0][]` → ['a', 'b', '0', '']; null for a malformed key. */
function splitKey(key: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (match === null) return null;
  const rest = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1] ?? '');
  return [match[1] ?? '', ...rest];
}

/** Objects whose keys are 0, 1, 2… become arrays, in index order. */
function arraysOf(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = arraysOf(value[key] as FormValue);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key] as FormValue);
  }
  return converted;
}

// Readers: a parameter of the expected kind, or undefined.
export const str = (value: FormValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
export const obj = (value: FormValue | undefined): FormObject | undefined =>
  typeof value === 'object' && !Array.isArray(value) ? value : undefined;
export const list = (value: FormValue | undefined): FormValue[] =>
  Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : value === undefined ? [] : [value];
export const strings = (value: FormValue | undefined): string[] => list(value).filter((item): item is string => typeof item === 'string');
export const bool = (value: FormValue | undefined): boolean | undefined => (value === 'true' ? true : value === 'false' ? false : undefined);

/** `metadata[x]=…` as a flat string map; an empty value means "remove this key" on updates. */
export function metadataOf(value: FormValue | undefined): Record<string, string> {
  const entries = Object.entries(obj(value) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return Object.fromEntries(entries);
}

export function mergeMetadata(current: Record<string, string>, update: FormValue | undefined): Record<string, string> {
  if (update === '') return {};
  const merged = { ...current };
  for (const [key, value] of Object.entries(metadataOf(update))) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
