import { z } from 'zod/mini';
import type { FieldIssue } from '#shared/api/errors.ts';
import { columnMappingValueSchema, fileInputValueSchema, type FileInputValue } from '#shared/api/flows.ts';
import { MAIL_CONFIG_NOT_USABLE_MESSAGE, MAIL_RECIPIENTS_REQUIRED_MESSAGE, emailResultValueSchema, type EmailResultValue } from '#shared/api/mail.ts';
import { DEFAULT_MAX_UPLOAD_BYTES, formatBytes, isAcceptedFile } from '#shared/files/index.ts';
import { dateOrderProblem, type FlowDefinition, type FlowInputDefinition } from '#shared/flows/definition.ts';
import { expiredCertificateMessage, workbookProblem, type WorkbookFacts } from '#shared/flows/launch-checks.ts';
import { fieldError, toIsoDate } from '#shared/forms/index.ts';
import { MANDATORY_MESSAGE, isNumeric } from '#shared/validation/index.ts';
import { validationError } from '../../http/errors.ts';
import type { StoredFile } from '../storage/service.ts';
import { UPLOAD_NOT_FOUND_MESSAGE } from '../storage/service.ts';

/** The inputs of a launch once checked against the flow's definition. */
export interface CheckedInputs {
  /** Non-file values (defaults filled in, normalised), as the robot gets them. */
  values: Record<string, unknown>;
  /** FileUpload inputs: the caller group's uploads, by input key. */
  uploads: Record<string, StoredFile[]>;
  /** What the run row keeps: values plus the file inputs as sent (ids, never contents). */
  stored: Record<string, unknown>;
}

/** Every input of every section, in order. */
export function flowInputs(definition: FlowDefinition): FlowInputDefinition[] {
  return definition.sectionSetup.builder.flatMap((section) => section.builder);
}

/** Certificates and native file dialogs exist only in the desktop app: a server run has nothing for them. */
function desktopOnly(input: FlowInputDefinition): boolean {
  return input.template === 'SelectionDialog' || input.template === 'Certificate' || input.config?.embedded === true;
}

type Check = { value: unknown } | { issue: string };

function checkCheckbox(input: FlowInputDefinition, value: unknown): Check {
  const checked = value === true || value === 'true' ? true : value === false || value === 'false' || value === undefined || value === null ? false : null;
  if (checked === null) return { issue: 'Marca o desmarca la casilla' };
  if (input.required === true && !checked) return { issue: MANDATORY_MESSAGE };
  return { value: checked };
}

function checkNumber(input: FlowInputDefinition, value: unknown): Check {
  const missing = fieldError({ value, required: input.required === true });
  if (missing !== null) return { issue: missing };
  if (value === undefined || value === null || value === '') return { value: null };
  if (!isNumeric(value)) return { issue: 'El valor introducido no es un número' };
  const number = typeof value === 'number' ? value : Number(String(value).trim().replace(',', '.'));
  const { min, max } = input.config ?? {};
  if ((min !== undefined && number < min) || (max !== undefined && number > max)) {
    return { issue: `Introduce un número entre ${min ?? '-∞'} y ${max ?? '∞'}` };
  }
  return { value: number };
}

function checkDate(input: FlowInputDefinition, value: unknown): Check {
  const missing = fieldError({ value, required: input.required === true });
  if (missing !== null) return { issue: missing };
  if (value === undefined || value === null || value === '') return { value: null };
  const iso = toIsoDate(value);
  return iso === null ? { issue: 'Introduce una fecha válida' } : { value: iso };
}

function checkText(input: FlowInputDefinition, value: unknown): Check {
  if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number') return { issue: 'Escribe un texto' };
  const choices = input.template === 'Dropdown' ? (input.validValues ?? []) : [];
  const error = fieldError({ value, required: input.required === true, formatRequired: input.formatRequired ?? true, ...(input.validate !== undefined && { rule: input.validate }) });
  if (error !== null) return { issue: error };
  const text = value === undefined || value === null ? '' : String(value);
  // A dropdown without choices is a text field (spec §5); with them, only their keys are values.
  if (choices.length > 0 && text !== '' && !choices.some((choice) => choice.key === text)) return { issue: 'Elige una de las opciones' };
  return { value: value === undefined || value === null ? null : text };
}

export const CERTIFICATE_REQUIRED_MESSAGE = 'Necesitas seleccionar un certificado para continuar.';

/** A desktop run's certificate: the fingerprint (SHA-256, hex) of one in its machine's store. */
function checkCertificate(input: FlowInputDefinition, value: unknown): Check {
  if (value === undefined || value === null || value === '') return input.required === true ? { issue: CERTIFICATE_REQUIRED_MESSAGE } : { value: null };
  if (typeof value !== 'string' || !/^[0-9a-f]{64}$/i.test(value)) return { issue: 'El certificado elegido no es válido' };
  return { value: value.toLowerCase() };
}

/** A desktop run's native dialog pick: paths on its machine, as the dialog gave them. */
function checkSelection(input: FlowInputDefinition, value: unknown): Check {
  const paths = value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value];
  if (!paths.every((path) => typeof path === 'string' && path.length > 0 && path.length <= 1_000) || paths.length > 1_000) return { issue: 'Elige los archivos o carpetas de nuevo' };
  if (paths.length === 0 && input.required === true) return { issue: MANDATORY_MESSAGE };
  if (paths.length > 1 && input.config?.multiple !== true) return { issue: input.config?.directory === true ? 'Elige una sola carpeta' : 'Elige un solo archivo' };
  return { value: paths };
}

function checkColumnMapping(input: FlowInputDefinition, value: unknown): Check {
  if (value === undefined || value === null) return { value: {} };
  const parsed = z.safeParse(columnMappingValueSchema, value);
  if (!parsed.success) return { issue: 'Indica para cada dato el nombre de la columna, o nada' };
  const known = new Set((input.config?.columns ?? []).map((column) => column.key));
  const unknown = Object.keys(parsed.data).find((key) => !known.has(key));
  if (unknown !== undefined) return { issue: `Este robot no comprueba la columna «${unknown}»` };
  return { value: parsed.data };
}

/**
 * 'Enviar resultado por email': null or absent sends nothing (unless required); otherwise a config id
 * and valid recipients. The issue names the bad part (inputs.emailResult.recipients.1).
 */
function checkEmailResult(input: FlowInputDefinition, value: unknown, path: string): { value: EmailResultValue } | FieldIssue {
  if (value === undefined || value === null) return input.required === true ? { path, message: MAIL_RECIPIENTS_REQUIRED_MESSAGE } : { value: null };
  const parsed = z.safeParse(emailResultValueSchema, value);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${path}.${issue.path.map(String).join('.')}` : path;
  return { path: where, message: issue?.message ?? 'Indica la configuración de correo y los destinatarios' };
}

/**
 * Checks a launch's inputs against the flow (spec §5 Inputs and forms): required and format rules,
 * choices, number bounds, and for FileUpload inputs that every file is an upload of the caller's group
 * of an accepted type and within the size limit. A server run has no desktop-only inputs; a desktop
 * run checks them too (a certificate's fingerprint, the dialog's paths). Throws a 400 with every bad field's path.
 */
export async function checkInputs(
  definition: FlowDefinition,
  sent: Readonly<Record<string, unknown>>,
  findUpload: (id: string) => Promise<StoredFile | undefined>,
  /** Whether an 'Enviar resultado por email' config is the caller firm's, with a linked account. */
  isUsableEmailConfig: (configId: string) => Promise<boolean>,
): Promise<CheckedInputs> {
  const issues: FieldIssue[] = [];
  const checked: CheckedInputs = { values: {}, uploads: {}, stored: {} };
  for (const input of flowInputs(definition)) {
    if (definition.runsOn === 'server' && desktopOnly(input)) continue;
    const path = `inputs.${input.key}`;
    const value = Object.hasOwn(sent, input.key) ? sent[input.key] : input.value;
    if (input.template === 'FileUpload') {
      const files = await checkFiles(input, value, findUpload, path, issues);
      if (files) {
        checked.uploads[input.key] = files.uploads;
        checked.stored[input.key] = files.sent;
      }
      continue;
    }
    if (input.template === 'EmailResult') {
      const result = checkEmailResult(input, value, path);
      if ('message' in result) issues.push(result);
      else if (result.value !== null && !(await isUsableEmailConfig(result.value.configId))) issues.push({ path: `${path}.configId`, message: MAIL_CONFIG_NOT_USABLE_MESSAGE });
      else checked.values[input.key] = checked.stored[input.key] = result.value;
      continue;
    }
    const check =
      input.template === 'Certificate' ? checkCertificate(input, value)
      : input.template === 'SelectionDialog' ? checkSelection(input, value)
      : input.template === 'Checkbox' ? checkCheckbox(input, value)
      : input.template === 'Number' ? checkNumber(input, value)
      : input.template === 'Date' ? checkDate(input, value)
      : input.template === 'ColumnMapping' ? checkColumnMapping(input, value)
      : checkText(input, value);
    if ('issue' in check) issues.push({ path, message: check.issue });
    else checked.values[input.key] = checked.stored[input.key] = check.value;
  }
  // A period's end before its start ('Hasta' before 'Desde'), once both are dates.
  const byKey = new Map(flowInputs(definition).map((input) => [input.key, input]));
  for (const input of byKey.values()) {
    const earlierKey = input.config?.notBefore;
    if (input.template !== 'Date' || earlierKey === undefined) continue;
    const asIso = (value: unknown) => (typeof value === 'string' ? value : null);
    const problem = dateOrderProblem(input, byKey.get(earlierKey), asIso(checked.values[input.key]), asIso(checked.values[earlierKey]));
    if (problem !== null) issues.push({ path: `inputs.${input.key}`, message: problem });
  }
  if (issues.length > 0) throw validationError(issues);
  return checked;
}

async function checkFiles(
  input: FlowInputDefinition,
  value: unknown,
  findUpload: (id: string) => Promise<StoredFile | undefined>,
  path: string,
  issues: FieldIssue[],
): Promise<{ uploads: StoredFile[]; sent: FileInputValue } | null> {
  const empty = value === undefined || value === null || (Array.isArray(value) && value.length === 0);
  if (empty && input.required === true) {
    issues.push({ path, message: MANDATORY_MESSAGE });
    return null;
  }
  if (empty) return { uploads: [], sent: [] };
  const parsed = z.safeParse(fileInputValueSchema, value);
  if (!parsed.success) {
    issues.push({ path, message: 'Sube los archivos antes de lanzar el robot' });
    return null;
  }
  if (input.config?.multiple !== true && parsed.data.length > 1) {
    issues.push({ path, message: 'Elige un solo archivo' });
    return null;
  }
  const uploads: StoredFile[] = [];
  let failed = false;
  for (const [index, { uploadId }] of parsed.data.entries()) {
    const upload = await findUpload(uploadId);
    if (!upload) {
      issues.push({ path: `${path}.${index}.uploadId`, message: UPLOAD_NOT_FOUND_MESSAGE });
      failed = true;
    } else if (!isAcceptedFile({ name: upload.name }, input.config?.accept)) {
      issues.push({ path: `${path}.${index}.uploadId`, message: `Este robot no admite archivos como «${upload.name}»` });
      failed = true;
    } else {
      uploads.push(upload);
    }
  }
  if (failed) return null;
  const limit = input.config?.maxSize ?? DEFAULT_MAX_UPLOAD_BYTES;
  const total = uploads.reduce((sum, upload) => sum + Number(upload.size), 0);
  if (total > limit) {
    issues.push({ path, message: `Los archivos ocupan ${formatBytes(total)} y el máximo es ${formatBytes(limit)}` });
    return null;
  }
  return { uploads, sent: parsed.data };
}

/**
 * A ColumnMapping input's workbook that cannot be launched (spec §4, the launcher says the same before
 * queueing): no data rows, or no column the robot checks found by the shared header matcher or named
 * in the mapping. Throws a 400 naming the mapping input (or the file input when the flow maps nothing);
 * nothing is written or charged before it. `sheetOf` gives an upload's first table (null: not a workbook).
 */
export async function checkWorkbooks(
  definition: FlowDefinition,
  checked: CheckedInputs,
  sheetOf: (upload: StoredFile) => Promise<WorkbookFacts | null>,
): Promise<void> {
  const issues: FieldIssue[] = [];
  for (const input of flowInputs(definition)) {
    const source = input.config?.source;
    if (input.template !== 'ColumnMapping' || source === undefined) continue;
    const mapping = (checked.values[input.key] ?? {}) as Record<string, string | null>;
    for (const upload of checked.uploads[source] ?? []) {
      const sheet = await sheetOf(upload);
      const problem = sheet === null ? null : workbookProblem(input.config?.columns ?? [], sheet, mapping);
      if (problem !== null) {
        issues.push({ path: `inputs.${input.key}`, message: problem });
        break;
      }
    }
  }
  if (issues.length > 0) throw validationError(issues);
}

/**
 * A desktop run's certificates that its machine synced as expired: a 400 on the input, as the launcher
 * refuses them (the portal would, later). A fingerprint the machine has not synced is left to the robot.
 */
export async function checkCertificates(
  definition: FlowDefinition,
  checked: CheckedInputs,
  now: Date,
  synced: (fingerprint: string) => Promise<{ commonName: string; notAfter: string } | undefined>,
): Promise<void> {
  const issues: FieldIssue[] = [];
  for (const input of flowInputs(definition)) {
    const fingerprint = checked.values[input.key];
    if (input.template !== 'Certificate' || typeof fingerprint !== 'string') continue;
    const certificate = await synced(fingerprint);
    const problem = certificate ? expiredCertificateMessage(certificate.commonName, certificate.notAfter, now) : null;
    if (problem !== null) issues.push({ path: `inputs.${input.key}`, message: problem });
  }
  if (issues.length > 0) throw validationError(issues);
}
