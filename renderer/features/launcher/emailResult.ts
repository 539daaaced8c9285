import { MAIL_CONFIG_REQUIRED_MESSAGE, MAIL_MAX_RECIPIENTS, MAIL_PROVIDER_NAMES, MAIL_RECIPIENTS_REQUIRED_MESSAGE } from '#shared/api/mail.ts';
import type { EmailResultValue, MailAccount } from '#shared/api/mail.ts';
import type { Machine, MachineConfig } from '#shared/api/machines.ts';
import { isValidEmail, ruleMessage } from '#shared/validation/index.ts';
import { z } from 'zod/mini';
import { launcher } from '../../i18n/es-launcher.ts';

/**
 * The 'Enviar resultado por email' input (template EmailResult) as the launcher's form holds it: '' when
 * off; when on, JSON of the chosen config, the recipients already split into chips and the text still
 * being typed (a typed address counts even before it becomes a chip, so 'Lanzar tarea' never sends
 * less than the user sees).
 */
export interface EmailResultState {
  configId: string;
  recipients: string[];
  draft: string;
}

const text = launcher.inputs.emailResult;
export const INVALID_EMAIL_MESSAGE = ruleMessage('email') ?? 'Introduce una dirección de correo electrónico válida';

const stateSchema = z.object({
  configId: z.string(),
  recipients: z.array(z.string()),
  draft: z._default(z.string(), ''),
});

export const EMPTY_EMAIL_RESULT: EmailResultState = { configId: '', recipients: [], draft: '' };

/** The form text's state; null when the input is off (or the text is not one). */
export function parseEmailResultText(formText: string | undefined): EmailResultState | null {
  if (!formText) return null;
  try {
    const parsed = stateSchema.safeParse(JSON.parse(formText));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function emailResultText(state: EmailResultState): string {
  return JSON.stringify(state);
}

/** What separates addresses as people type or paste them: commas, semicolons or line breaks. */
export const ADDRESS_SEPARATOR = /[,;\r\n]/;

/** Addresses as people paste them: separated by commas, semicolons or line breaks. */
export function splitAddresses(typed: string): string[] {
  return typed.split(ADDRESS_SEPARATOR).map((part) => part.trim()).filter((part) => part !== '');
}

/** Adds addresses not already there (compared without case: one mailbox, one copy). */
export function mergeRecipients(existing: readonly string[], added: readonly string[]): string[] {
  const seen = new Set(existing.map((address) => address.toLowerCase()));
  const merged = [...existing];
  for (const address of added) {
    if (seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    merged.push(address);
  }
  return merged;
}

/** Everything the user has given: the chips and what is still typed. */
export function allRecipients(state: EmailResultState): string[] {
  return mergeRecipients(state.recipients, splitAddresses(state.draft));
}

export interface EmailResultProblems {
  config?: string;
  recipients?: string;
}

/** What is missing or wrong in each part; empty when it can be sent. */
export function emailResultProblems(state: EmailResultState): EmailResultProblems {
  const problems: EmailResultProblems = {};
  if (state.configId === '') problems.config = MAIL_CONFIG_REQUIRED_MESSAGE;
  const recipients = allRecipients(state);
  if (recipients.length === 0) problems.recipients = MAIL_RECIPIENTS_REQUIRED_MESSAGE;
  else if (recipients.some((address) => !isValidEmail(address))) problems.recipients = INVALID_EMAIL_MESSAGE;
  else if (recipients.length > MAIL_MAX_RECIPIENTS) problems.recipients = text.tooMany(MAIL_MAX_RECIPIENTS);
  return problems;
}

/** The form rule's check: off is fine; on, the first problem (the input shows each under its part). */
export function emailResultProblem(formText: string): string | undefined {
  const state = parseEmailResultText(formText);
  if (state === null) return undefined;
  const problems = emailResultProblems(state);
  return problems.config ?? problems.recipients;
}

/** What the execution request (and a schedule's flowInputs) carries: null when off. */
export function emailResultRequestValue(formText: string): EmailResultValue {
  const state = parseEmailResultText(formText);
  if (state === null) return null;
  return { configId: state.configId, recipients: allRecipients(state).map((address) => address.trim()) };
}

/** A flow's default (emailResultValueSchema's shape) as form text; anything else starts off. */
export function defaultEmailResultText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const { configId, recipients } = value as { configId?: unknown; recipients?: unknown };
  if (typeof configId !== 'string' || !Array.isArray(recipients)) return '';
  return emailResultText({ configId, recipients: recipients.filter((address): address is string => typeof address === 'string'), draft: '' });
}

// ---------------------------------------------------------------------------------------------------
// The configurations to send with

export interface EmailConfigOption {
  value: string;
  /** '<config name> — <email> (<provider name>)'. */
  label: string;
  /** Why it cannot be chosen; undefined when it can. */
  reason?: string;
}

/**
 * Every config with email settings: the firm's own (on no device, issue 43) first, then those on the
 * machines the user sees, plus those flagged with an error (shown disabled with it). A config whose
 * mailbox is not linked (needs re-linking, or, once the accounts are known, not linked at all) is
 * disabled too: the server would refuse to send from it.
 */
export function emailConfigOptions(machines: readonly Machine[], accounts: readonly MailAccount[] | undefined, firmConfigs: readonly MachineConfig[] = []): EmailConfigOption[] {
  const options: EmailConfigOption[] = [];
  for (const config of [...firmConfigs, ...machines.flatMap((machine) => machine.configs)]) {
    const settings = config.emailSettings;
    if (config.error !== null) {
      options.push({ value: config._id, label: settings ? configLabel(config.name, settings.email, settings.provider) : config.name, reason: config.error });
      continue;
    }
    if (settings === null) continue;
    const account = accounts?.find((candidate) => candidate.provider === settings.provider && candidate.email.toLowerCase() === settings.email.toLowerCase());
    let reason: string | undefined;
    if (account?.status === 'needs_relink') reason = account.problem ?? text.needsRelink;
    else if (accounts !== undefined && account === undefined) reason = text.notLinked;
    options.push({ value: config._id, label: configLabel(config.name, settings.email, settings.provider), ...(reason === undefined ? {} : { reason }) });
  }
  return options;
}

function configLabel(name: string, email: string, provider: keyof typeof MAIL_PROVIDER_NAMES): string {
  return `${name} — ${email} (${MAIL_PROVIDER_NAMES[provider]})`;
}
