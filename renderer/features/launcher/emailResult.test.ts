import { describe, expect, it } from 'vitest';
import { MAIL_CONFIG_REQUIRED_MESSAGE, MAIL_RECIPIENTS_REQUIRED_MESSAGE, emailResultValueSchema } from '#shared/api/mail.ts';
import {
  allRecipients, defaultEmailResultText, emailConfigOptions, emailResultProblem, emailResultProblems, emailResultRequestValue, emailResultText,
  mergeRecipients, parseEmailResultText, splitAddresses,
} from './emailResult.ts';
import { mailAccounts, mailMachines } from './test/mailData.ts';

const on = (configId: string, recipients: string[], draft = '') => emailResultText({ configId, recipients, draft });

describe("'Enviar resultado por email' form text", () => {
  it('is off when empty or not its shape, and reads back what it wrote', () => {
    expect(parseEmailResultText('')).toBeNull();
    expect(parseEmailResultText('true')).toBeNull();
    expect(parseEmailResultText('{"configId":1}')).toBeNull();
    expect(parseEmailResultText(on('c', ['a@b.es'], 'x'))).toEqual({ configId: 'c', recipients: ['a@b.es'], draft: 'x' });
  });

  it('splits pasted addresses at commas, semicolons and line breaks, and merges without repeats (case apart)', () => {
    expect(splitAddresses(' ana@a.es, luis@b.es;\r\nmar@c.es\n\n ; ')).toEqual(['ana@a.es', 'luis@b.es', 'mar@c.es']);
    expect(mergeRecipients(['Ana@a.es'], ['ana@a.es', 'luis@b.es', 'LUIS@b.es'])).toEqual(['Ana@a.es', 'luis@b.es']);
    expect(allRecipients({ configId: '', recipients: ['ana@a.es'], draft: 'luis@b.es, ana@A.es' })).toEqual(['ana@a.es', 'luis@b.es']);
  });

  it('needs a config and at least one recipient, each a valid address, at most 20', () => {
    expect(emailResultProblem('')).toBeUndefined();
    expect(emailResultProblems({ configId: '', recipients: [], draft: '' })).toEqual({ config: MAIL_CONFIG_REQUIRED_MESSAGE, recipients: MAIL_RECIPIENTS_REQUIRED_MESSAGE });
    expect(emailResultProblem(on('', ['a@b.es']))).toBe(MAIL_CONFIG_REQUIRED_MESSAGE);
    expect(emailResultProblem(on('c', []))).toBe(MAIL_RECIPIENTS_REQUIRED_MESSAGE);
    // Typed but not yet a chip still counts.
    expect(emailResultProblem(on('c', [], 'cliente@empresa.es'))).toBeUndefined();
    expect(emailResultProblem(on('c', ['a@b.es', 'ana@']))).toBe('Introduce una dirección de correo electrónico válida');
    expect(emailResultProblem(on('c', [], 'sin-arroba'))).toBe('Introduce una dirección de correo electrónico válida');
    const twenty = Array.from({ length: 20 }, (_, index) => `p${index}@asesoria.es`);
    expect(emailResultProblem(on('c', twenty))).toBeUndefined();
    expect(emailResultProblem(on('c', [...twenty, 'otro@asesoria.es']))).toBe('Hasta 20 destinatarios');
  });

  it("travels as null when off and as the shared schema's value when on", () => {
    expect(emailResultRequestValue('')).toBeNull();
    const value = emailResultRequestValue(on('cfg-1', ['ana@a.es'], ' luis@b.es '));
    expect(value).toEqual({ configId: 'cfg-1', recipients: ['ana@a.es', 'luis@b.es'] });
    expect(emailResultValueSchema.safeParse(value).success).toBe(true);
  });

  it("starts from a flow's default only when it has the value's shape", () => {
    expect(defaultEmailResultText(null)).toBe('');
    expect(defaultEmailResultText('x')).toBe('');
    expect(parseEmailResultText(defaultEmailResultText({ configId: 'c', recipients: ['a@b.es', 3] }))).toEqual({ configId: 'c', recipients: ['a@b.es'], draft: '' });
  });
});

describe('the email configurations offered', () => {
  it('lists configs with email settings and flagged ones, disabling a broken one and an account that needs re-linking', () => {
    expect(emailConfigOptions(mailMachines, mailAccounts)).toEqual([
      { value: 'cfg-gmail', label: 'Resultados clientes — asesoria@gmail.com (Google (Gmail))' },
      { value: 'cfg-outlook', label: 'Avisos — avisos@asesoria.es (Microsoft (Outlook))', reason: 'La cuenta de correo necesita volver a conectarse: el proveedor ha retirado el permiso.' },
      { value: 'cfg-broken', label: 'Rota', reason: 'La configuración de correo guardada no es válida' },
    ]);
  });

  it('disables a config whose mailbox is not linked once the accounts are known, and nothing for that while they are not', () => {
    const known = emailConfigOptions(mailMachines, []);
    expect(known.find((option) => option.value === 'cfg-gmail')?.reason).toBe('La cuenta de correo no está conectada');
    const unknown = emailConfigOptions(mailMachines, undefined);
    expect(unknown.find((option) => option.value === 'cfg-gmail')?.reason).toBeUndefined();
    expect(unknown.find((option) => option.value === 'cfg-broken')?.reason).toBe('La configuración de correo guardada no es válida');
  });
});
