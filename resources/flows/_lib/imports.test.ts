import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The robots' import boundary (eslint.config.js): a desktop robot may name playwright-core's types, but
 * a value import (a robot launching its own browser) or any Node or other package fails lint.
 */
const eslint = new ESLint({ cwd: new URL('../../../', import.meta.url).pathname });

async function importProblems(source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: 'resources/flows/descargar-justificantes/robot.ts' });
  return (result?.messages ?? []).filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports').map((message) => message.message);
}

describe('what a robot may import', () => {
  it.each([
    "import type { Page } from 'playwright-core';\nexport type P = Page;\n",
    "import { type Download } from 'playwright-core';\nexport type D = Download;\n",
    "import { validate } from '#shared/validation/validate.ts';\nexport const v = validate;\n",
    "import * as XLSX from 'xlsx';\nexport const x = XLSX;\n",
  ])('allows %j', async (source) => {
    expect(await importProblems(source)).toEqual([]);
  }, 30_000);

  it.each([
    ["import { chromium } from 'playwright-core';\nexport const c = chromium;\n", /only types from playwright-core/],
    ["import { chromium, type Page } from 'playwright-core';\nexport const c = chromium;\nexport type P = Page;\n", /only types from playwright-core/],
    ["import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", /imports only shared/],
    ["import type { Readable } from 'node:stream';\nexport type R = Readable;\n", /imports only shared/],
    ["import { z } from 'zod/mini';\nexport const s = z;\n", /imports only shared/],
  ])('forbids %j', async (source, message) => {
    const problems = await importProblems(source);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  }, 30_000);
});
