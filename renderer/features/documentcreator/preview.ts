import { fillTemplate, templatePlaceholders } from '#shared/documents/blocks.ts';
import type { TemplateContent } from '#shared/documents/blocks.ts';

/**
 * The live preview's content: the template filled by the same fillTemplate the PDF and the .docx use,
 * with each field's value a marked-up copy of its own name, so the preview can highlight where every
 * field lands. The stamps get the real date; [[SIGNATURE]] is marked too.
 */
const START = '\uE000';
const END = '\uE001';
const MARK = /\uE000([^\uE000\uE001]*)\uE001/gu;

export const SIGNATURE_MARK = 'SIGNATURE';

export function previewValues(keys: readonly string[]): Record<string, string> {
  const values: Record<string, string> = Object.fromEntries(keys.map((key) => [key, `${START}${key}${END}`]));
  values.SIGNATURE = `${START}${SIGNATURE_MARK}${END}`;
  return values;
}

export function previewContent(content: TemplateContent, now: Date): TemplateContent {
  return fillTemplate(content, previewValues(templatePlaceholders(content)), now);
}

export type TextPart = { text: string; field?: undefined } | { field: string; text?: undefined };

/** A filled text cut into plain runs and the fields' marks, in order. */
export function splitMarks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(MARK)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ field: match[1] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
