import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { MAIL_CONFIG_NOT_USABLE_MESSAGE, MAIL_RECIPIENTS_REQUIRED_MESSAGE } from '#shared/api/mail.ts';
import { flowDefinitionSchema } from '#shared/flows/definition.ts';
import { builtInFlows } from '../../../resources/flows/index.ts';
import { HttpError } from '../../http/errors.ts';
import { checkInputs } from './inputs.ts';

const definition = z.parse(flowDefinitionSchema, builtInFlows.find((flow) => (flow.definition as { id: string }).id === 'validar-identificadores')!.definition);
const uploadId = '0b6a2a52-4c38-4d5e-9d8a-3f1b2c4d5e6f';
const upload = { id: uploadId, name: 'trabajadores.xlsx', size: 100 } as never;
const base = { workbook: [{ uploadId, name: 'trabajadores.xlsx' }] };
/** The firm's usable email configs, as the launch's lookup answers (machine_configs with a linked account). */
const usableConfigs = new Set(['cfg-1']);
const check = (sent: Record<string, unknown>) => checkInputs(definition, sent, async () => upload, async (configId) => usableConfigs.has(configId));

async function issuesOf(sent: Record<string, unknown>) {
  const error = await check(sent).then(() => null, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).statusCode).toBe(400);
  return (error as HttpError).extra.issues;
}

describe("run inputs: 'Enviar resultado por email'", () => {
  it('is offered by the flow, optional, last of the first section', () => {
    const first = definition.sectionSetup.builder[0]!.builder;
    expect(first.at(-1)).toMatchObject({ key: 'emailResult', template: 'EmailResult', label: 'Enviar resultado por email' });
    expect(first.at(-1)?.required).not.toBe(true);
  });

  it('keeps null or absent as null, and a good value as sent', async () => {
    expect((await check(base)).stored.emailResult).toBeNull();
    expect((await check({ ...base, emailResult: null })).stored.emailResult).toBeNull();
    const value = { configId: 'cfg-1', recipients: ['cliente@example.com'] };
    const checked = await check({ ...base, emailResult: value });
    expect(checked.stored.emailResult).toEqual(value);
    expect(checked.values.emailResult).toEqual(value);
  });

  it('refuses a bad address with a 400 on that recipient, and an empty list', async () => {
    expect(await issuesOf({ ...base, emailResult: { configId: 'cfg-1', recipients: ['ok@example.com', 'no es correo'] } })).toEqual([
      { path: 'inputs.emailResult.recipients.1', message: 'Introduce una dirección de correo electrónico válida' },
    ]);
    expect(await issuesOf({ ...base, emailResult: { configId: 'cfg-1', recipients: [] } })).toEqual([{ path: 'inputs.emailResult.recipients', message: MAIL_RECIPIENTS_REQUIRED_MESSAGE }]);
    expect(await issuesOf({ ...base, emailResult: 'todos' })).toHaveLength(1);
  });

  it("refuses a config that is not the firm's or has no linked account, on configId", async () => {
    expect(await issuesOf({ ...base, emailResult: { configId: 'cfg-de-otra-asesoria', recipients: ['ok@example.com'] } })).toEqual([
      { path: 'inputs.emailResult.configId', message: MAIL_CONFIG_NOT_USABLE_MESSAGE },
    ]);
  });
});
