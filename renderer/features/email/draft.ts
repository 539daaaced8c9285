import { z } from 'zod/mini';
import { DEFAULT_MAIL_BODY, DEFAULT_MAIL_SUBJECT } from '#shared/mail/template.ts';
import type { MailAccount, MailProvider } from '#shared/api/mail.ts';
import type { EmailSettings, MachineConfig, MachineConfigRequest } from '#shared/api/machines.ts';
import { isValidCcc } from '#shared/validation/identifiers.ts';
import { mail as text } from '../../i18n/es-mail.ts';

/** The wizard's steps, in order (spec §4 'Email wizard': custom, then auth, then summary). */
export const WIZARD_STEPS = ['custom', 'auth', 'summary'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export interface MessageFields {
  name: string;
  subject: string;
  body: string;
  replyTo: string;
  senderName: string;
  /** The config's CCC list as typed: one a line (commas and semicolons also split). */
  ccc: string;
}
export type MessageField = keyof MessageFields;
export type MessageErrors = Partial<Record<MessageField, string>>;

/** Everything the wizard holds; what survives the trip to the provider's page (web OAuth). */
export interface WizardDraft {
  step: WizardStep;
  /** The device it is saved on; null: the firm's own config, on no device (any robot of the firm uses it). */
  machineId: string | null;
  /** The saved config being edited (?config=); null for a new one. */
  configId: string | null;
  fields: MessageFields;
  /** The chosen linked account. */
  accountId: string | null;
}

/** The limits of shared emailSettingsSchema / machineConfigRequestSchema, checked before sending. */
export const MAX_LENGTHS: Record<MessageField, number> = { name: 100, subject: 300, body: 20_000, replyTo: 254, senderName: 200, ccc: 20_000 };
/** The order errors are looked for in, as the fields are laid out: 'Siguiente' goes to the first. */
export const FIELD_ORDER: readonly MessageField[] = ['name', 'ccc', 'subject', 'body', 'replyTo', 'senderName'];

export function initialDraft(machineId: string | null): WizardDraft {
  return {
    step: 'custom',
    machineId,
    configId: null,
    fields: { name: '', subject: DEFAULT_MAIL_SUBJECT, body: DEFAULT_MAIL_BODY, replyTo: '', senderName: '', ccc: '' },
    accountId: null,
  };
}

/** CCCs as typed: one a line, or separated by commas or semicolons (as the device's config form reads them). */
export function parseCccText(typed: string): string[] {
  return typed.split(/[\n,;]+/).map((line) => line.trim()).filter((line) => line !== '');
}

/**
 * A saved config, to edit: its message, CCCs and the linked account it sends from (if the firm still
 * has it), on the device it is saved on (null: the firm's own).
 */
export function draftFromConfig(config: MachineConfig, machineId: string | null, accounts: readonly MailAccount[] | undefined): WizardDraft {
  const settings = config.emailSettings;
  const account = settings ? accounts?.find((candidate) => candidate.provider === settings.provider && candidate.email.toLowerCase() === settings.email.toLowerCase()) : undefined;
  return {
    step: 'custom',
    machineId,
    configId: config._id,
    fields: {
      name: config.name,
      subject: settings?.subject ?? DEFAULT_MAIL_SUBJECT,
      body: settings?.body ?? DEFAULT_MAIL_BODY,
      replyTo: settings?.replyTo ?? '',
      senderName: settings?.senderName ?? '',
      ccc: config.cccList.join('\n'),
    },
    accountId: account?._id ?? null,
  };
}

// The server checks replyTo with zod's email (shared emailSettingsSchema): the same rule here, so what passes step 1 is not refused at the save.
const emailRule = z.email();

/** Step 1's checks, in the spec's Spanish; an empty object when the message can go on. */
export function validateMessage(fields: MessageFields): MessageErrors {
  const errors: MessageErrors = {};
  if (fields.name.trim() === '') errors.name = text.message.nameRequired;
  if (fields.subject.trim() === '') errors.subject = text.message.subjectRequired;
  if (fields.body.trim() === '') errors.body = text.message.bodyRequired;
  const replyTo = fields.replyTo.trim();
  if (replyTo !== '' && !emailRule.safeParse(replyTo).success) errors.replyTo = text.message.email;
  const wrongCcc = parseCccText(fields.ccc).find((ccc) => !isValidCcc(ccc));
  if (wrongCcc !== undefined) errors.ccc = text.message.invalidCcc(wrongCcc);
  for (const field of Object.keys(MAX_LENGTHS) as MessageField[]) {
    if (errors[field] === undefined && fields[field].trim().length > MAX_LENGTHS[field]) errors[field] = text.message.tooLong(MAX_LENGTHS[field]);
  }
  return errors;
}

/** `[[KEY]]` put in place of the selection; the caret goes right after it. */
export function insertPlaceholder(value: string, selectionStart: number, selectionEnd: number, key: string): { value: string; caret: number } {
  const start = Math.max(0, Math.min(selectionStart, value.length));
  const end = Math.max(start, Math.min(selectionEnd, value.length));
  const token = `[[${key}]]`;
  return { value: value.slice(0, start) + token + value.slice(end), caret: start + token.length };
}

/** An account a config may send from: linked, not waiting for a re-link. */
export const isUsable = (account: MailAccount) => account.status === 'linked';

/** The account the draft names, if it is still there and usable. */
export function chosenAccount(draft: WizardDraft, accounts: readonly MailAccount[] | undefined): MailAccount | null {
  const account = accounts?.find((candidate) => candidate._id === draft.accountId);
  return account && isUsable(account) ? account : null;
}

/** What step 3 POSTs to the machine's configs (spec §3 Machine config: emailSettings). */
export function configRequest(fields: MessageFields, account: { provider: MailProvider; email: string }): MachineConfigRequest {
  const senderName = fields.senderName.trim();
  const emailSettings: EmailSettings = {
    subject: fields.subject.trim(),
    body: fields.body,
    provider: account.provider,
    email: account.email,
    replyTo: fields.replyTo.trim(),
    ...(senderName === '' ? {} : { senderName }),
  };
  return { name: fields.name.trim(), cccList: parseCccText(fields.ccc), emailSettings };
}

// ---------------------------------------------------------------------------------------------------
// The draft across the web OAuth round trip (sessionStorage: this tab only, gone when it closes)

export const DRAFT_STORAGE_KEY = 'autoasesor.mailWizardDraft';

export function saveDraft(draft: WizardDraft): void {
  try {
    window.sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Storage full or blocked: the wizard starts over after the provider's page, nothing worse.
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** The stored draft, checked field by field (it comes back from storage a page load later); null when absent or damaged. */
export function loadDraft(): WizardDraft | null {
  let raw: string | null;
  try {
    raw = window.sessionStorage.getItem(DRAFT_STORAGE_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof WizardDraft, unknown>>;
    const fields = value.fields as Partial<Record<MessageField, unknown>> | undefined;
    if (!WIZARD_STEPS.includes(value.step as WizardStep) || typeof fields !== 'object' || fields === null) return null;
    const keys: MessageField[] = ['name', 'subject', 'body', 'replyTo', 'senderName'];
    if (!keys.every((key) => isString(fields[key]))) return null;
    return {
      step: value.step as WizardStep,
      machineId: isString(value.machineId) ? value.machineId : null,
      configId: isString(value.configId) ? value.configId : null,
      // A draft saved before the CCC field had none.
      fields: { ...(Object.fromEntries(keys.map((key) => [key, fields[key]])) as unknown as MessageFields), ccc: isString(fields.ccc) ? fields.ccc : '' },
      accountId: isString(value.accountId) ? value.accountId : null,
    };
  } catch {
    return null;
  }
}

export function clearDraft(): void {
  try {
    window.sessionStorage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Nothing to clear where storage is blocked.
  }
}

/** Where the wizard continues after the provider's page: /email, on the draft's machine (or config being edited). */
export function wizardPath(machineId: string | null, configId: string | null = null): string {
  const params = new URLSearchParams();
  if (machineId !== null) params.set('machine', machineId);
  if (configId !== null) params.set('config', configId);
  const query = params.toString();
  return query === '' ? '/email' : `/email?${query}`;
}
