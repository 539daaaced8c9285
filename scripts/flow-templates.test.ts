import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FLOW_TEMPLATES, templateWorkbook, workbookRows } from './flow-templates.ts';

describe('flow templates', () => {
  it.each(FLOW_TEMPLATES.map((template) => [template.path, template] as const))(
    '%s is committed as the script writes it (run `tsx scripts/flow-templates.ts` after a change)',
    (path, template) => {
      const committed = new Uint8Array(readFileSync(new URL(`../${path}`, import.meta.url)));
      expect(workbookRows(committed)).toEqual(workbookRows(templateWorkbook(template)));
      expect(Object.keys(workbookRows(committed))).toEqual(template.sheets.map((sheet) => sheet.name));
    },
  );
});
