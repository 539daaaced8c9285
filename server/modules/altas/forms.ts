import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ALTAS_FLOW_ID, FORM_SLUG_PATTERN, FORM_URL_PREFIX, URL_IN_USE_MESSAGE, type FormConfiguration, type FormDefinition, type FormSettings, type FormPage } from '#shared/api/altas.ts';
import { effectiveDefinition, effectiveFields, fieldOverrideErrors, formPagesErrors, type FieldOverrides } from '#shared/altas/index.ts';
import { FORM_URL_FORMAT_MESSAGE, formConfigSlug } from '#shared/forms/index.ts';
import type { FormField } from '#shared/api/altas.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { FileStorage } from '../storage/service.ts';
import { fieldErrors, FLOW_NOT_FOUND_MESSAGE, FILE_NOT_FOUND_MESSAGE, notFound } from './messages.ts';
import { ensureForm, formOverrides, formPages, logoPath, type FormRow } from './store.ts';

export interface NewLogo {
  storageKey: string;
  contentType: string;
}

/** The firm's form: its effective definition, its configuration and its public settings (spec §5 Form config). */
export class AltasForms {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly storage: FileStorage,
  ) {}

  form(groupId: string): Promise<FormRow> {
    return ensureForm(this.db, groupId, this.now());
  }

  /** The effective fields of the firm's form (built-in with its overrides). */
  async fields(groupId: string): Promise<Record<string, FormField>> {
    return effectiveFields(formOverrides(await this.form(groupId)));
  }

  async definition(groupId: string, flowId: string): Promise<FormDefinition> {
    if (flowId !== ALTAS_FLOW_ID) throw notFound(FLOW_NOT_FOUND_MESSAGE);
    return definitionOf(await this.form(groupId));
  }

  async configuration(groupId: string, flowId: string): Promise<FormConfiguration> {
    if (flowId !== ALTAS_FLOW_ID) throw notFound(FLOW_NOT_FOUND_MESSAGE);
    return configurationOf(await this.form(groupId));
  }

  async updateConfiguration(groupId: string, flowId: string, update: { name: string; formPages: FormPage[]; fields?: FieldOverrides | undefined }): Promise<FormConfiguration> {
    if (flowId !== ALTAS_FLOW_ID) throw notFound(FLOW_NOT_FOUND_MESSAGE);
    const form = await this.form(groupId);
    const overrides = update.fields ?? formOverrides(form);
    const errors = { ...formPagesErrors(update.formPages), ...prefixed('fields', fieldOverrideErrors(overrides)) };
    if (Object.keys(errors).length > 0) throw fieldErrors(errors, null);
    await this.db
      .updateTable('altas_forms')
      .set({ configuration_name: update.name, form_pages: JSON.stringify(update.formPages), field_overrides: JSON.stringify(overrides), updated_at: this.now().toISOString() })
      .where('id', '=', form.id)
      .execute();
    return configurationOf(await this.form(groupId));
  }

  async settings(groupId: string): Promise<FormSettings> {
    return settingsOf(await this.form(groupId));
  }

  /**
   * Saves title and url (slug checked, unique across firms) and the new logo when one came (already
   * stored and judged by its bytes). A refused save removes the new logo; a replaced logo is removed.
   */
  async updateSettings(groupId: string, update: { title: string; url: string; removeLogo: boolean }, logo: NewLogo | null): Promise<FormSettings> {
    const dropNewLogo = async () => {
      if (logo) await this.storage.remove([logo.storageKey]);
    };
    const slug = formConfigSlug(update.url);
    if (!FORM_SLUG_PATTERN.test(slug)) {
      await dropNewLogo();
      throw fieldErrors({ url: FORM_URL_FORMAT_MESSAGE }, null);
    }
    const url = FORM_URL_PREFIX + slug;
    const form = await this.form(groupId);
    const taken = await this.db.selectFrom('altas_forms').select('id').where('url', '=', url).where('id', '!=', form.id).executeTakeFirst();
    if (taken) {
      await dropNewLogo();
      throw new HttpError(409, 'URL_IN_USE', URL_IN_USE_MESSAGE);
    }
    const replacesLogo = logo !== null || update.removeLogo;
    try {
      await this.db
        .updateTable('altas_forms')
        .set({
          title: update.title,
          url,
          updated_at: this.now().toISOString(),
          ...(replacesLogo && { logo_id: logo ? randomUUID() : null, logo_key: logo?.storageKey ?? null, logo_mime: logo?.contentType ?? null }),
        })
        .where('id', '=', form.id)
        .execute();
    } catch (error) {
      await dropNewLogo();
      // Two firms saving the same URL at once: the unique index decides.
      const taken = await this.db.selectFrom('altas_forms').select('id').where('url', '=', url).where('id', '!=', form.id).executeTakeFirst();
      if (taken) throw new HttpError(409, 'URL_IN_USE', URL_IN_USE_MESSAGE);
      throw error;
    }
    if (replacesLogo && form.logo_key) await this.storage.remove([form.logo_key]);
    return settingsOf(await this.form(groupId));
  }

  /** The logo for the public form (any firm's: the company sees it before signing in). */
  async logo(logoId: string): Promise<{ data: Buffer; contentType: string }> {
    const row = await this.db.selectFrom('altas_forms').select(['logo_key', 'logo_mime']).where('logo_id', '=', logoId).executeTakeFirst();
    if (!row?.logo_key || !row.logo_mime) throw notFound(FILE_NOT_FOUND_MESSAGE);
    const data = await this.storage.read(row.logo_key).catch(() => null);
    if (data === null) throw notFound(FILE_NOT_FOUND_MESSAGE);
    return { data, contentType: row.logo_mime };
  }
}

const prefixed = (prefix: string, errors: Record<string, string>) => Object.fromEntries(Object.entries(errors).map(([key, message]) => [`${prefix}.${key}`, message]));

export function settingsOf(form: FormRow): FormSettings {
  return { title: form.title, url: form.url, logo: form.logo_id ? logoPath(form.logo_id) : null };
}

export function definitionOf(form: FormRow): FormDefinition {
  return effectiveDefinition({ title: form.title, url: form.url, logo: form.logo_id ? logoPath(form.logo_id) : null, formPages: formPages(form), overrides: formOverrides(form) });
}

function configurationOf(form: FormRow): FormConfiguration {
  return { _id: form.id, flowId: form.flow_id, name: form.configuration_name, formPages: definitionOf(form).defaultFormPages, fields: formOverrides(form) };
}
