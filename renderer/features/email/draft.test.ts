import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_BODY, DEFAULT_MAIL_SUBJECT } from '#shared/mail/template.ts';
import { machineConfigRequestSchema } from '#shared/api/machines.ts';
import {
  DRAFT_STORAGE_KEY, chosenAccount, clearDraft, configRequest, initialDraft, insertPlaceholder, loadDraft, saveDraft, validateMessage, wizardPath,
} from './draft.ts';
import type { MessageFields } from './draft.ts';
import { account, relinkAccount } from './test/renderEmail.tsx';

afterEach(() => window.sessionStorage.clear());

const fields = (overrides: Partial<MessageFields> = {}): MessageFields => ({ ...initialDraft(null).fields, name: 'Resultados', ...overrides });

describe('the message checks', () => {
  it('start from the default subject and body', () => {
    const draft = initialDraft('m1');
    expect(draft).toMatchObject({ step: 'custom', machineId: 'm1', accountId: null });
    expect(draft.fields.subject).toBe(DEFAULT_MAIL_SUBJECT);
    expect(draft.fields.body).toBe(DEFAULT_MAIL_BODY);
  });

  it('need a name, a subject and a body, and a valid reply-to only when one is given', () => {
    expect(validateMessage(fields())).toEqual({});
    expect(validateMessage(fields({ name: '  ', subject: '', body: ' ' }))).toEqual({
      name: 'Pon un nombre a la configuración', subject: 'Escribe el asunto del mensaje', body: 'Escribe el texto del mensaje',
    });
    expect(validateMessage(fields({ replyTo: 'no-es-correo' })).replyTo).toBe('Introduce una dirección de correo electrónico válida');
    expect(validateMessage(fields({ replyTo: ' clientes@asesoria.es ' }))).toEqual({});
    expect(validateMessage(fields({ replyTo: 'a..b@asesoria.es' })).replyTo).toBe('Introduce una dirección de correo electrónico válida');
  });

  it('refuse what the server would refuse for length', () => {
    expect(validateMessage(fields({ subject: 'a'.repeat(301) })).subject).toBe('Como máximo 300 caracteres');
  });
});

describe('insertPlaceholder', () => {
  it('puts [[KEY]] at the caret, replacing a selection, and moves the caret after it', () => {
    expect(insertPlaceholder('Hola , adiós', 5, 5, 'ROBOT')).toEqual({ value: 'Hola [[ROBOT]], adiós', caret: 14 });
    expect(insertPlaceholder('Hola XXX', 5, 8, 'EMPRESA')).toEqual({ value: 'Hola [[EMPRESA]]', caret: 16 });
    expect(insertPlaceholder('abc', 99, 99, 'A')).toEqual({ value: 'abc[[A]]', caret: 8 });
  });
});

describe('the saved config', () => {
  it('carries the message and the account, and passes the shared request schema', () => {
    const request = configRequest(fields({ replyTo: ' r@asesoria.es ', senderName: ' Asesoría ' }), account());
    expect(request).toEqual({
      name: 'Resultados', cccList: [],
      emailSettings: { subject: DEFAULT_MAIL_SUBJECT, body: DEFAULT_MAIL_BODY, provider: 'google', email: 'despacho@asesoria.es', replyTo: 'r@asesoria.es', senderName: 'Asesoría' },
    });
    expect(machineConfigRequestSchema.safeParse(request).success).toBe(true);
    expect(configRequest(fields(), account()).emailSettings).not.toHaveProperty('senderName');
  });

  it('only uses a linked account that is still in the list', () => {
    const draft = { ...initialDraft(null), accountId: 'acc-1' };
    expect(chosenAccount(draft, [account()])?._id).toBe('acc-1');
    expect(chosenAccount(draft, [])).toBeNull();
    expect(chosenAccount({ ...draft, accountId: relinkAccount._id }, [relinkAccount])).toBeNull();
  });
});

describe('the stored draft', () => {
  it('comes back as it was saved, once cleared is gone', () => {
    const draft = { ...initialDraft('m1'), step: 'auth' as const, accountId: 'acc-1', fields: fields({ senderName: 'Ana' }) };
    saveDraft(draft);
    expect(loadDraft()).toEqual(draft);
    clearDraft();
    expect(loadDraft()).toBeNull();
  });

  it('is ignored when damaged', () => {
    window.sessionStorage.setItem(DRAFT_STORAGE_KEY, '{nope');
    expect(loadDraft()).toBeNull();
    window.sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ step: 'otro', fields: fields() }));
    expect(loadDraft()).toBeNull();
    window.sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ step: 'auth', fields: { ...fields(), body: 3 } }));
    expect(loadDraft()).toBeNull();
  });

  it('leads back to the wizard on its machine', () => {
    expect(wizardPath('m 1')).toBe('/email?machine=m+1');
    expect(wizardPath(null)).toBe('/email');
  });
});
