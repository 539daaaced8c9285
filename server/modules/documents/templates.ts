import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { CATEGORY_TAKEN_MESSAGE, type Category, type CategoryBody, type Template, type TemplateBody, type TemplateSummary } from '#shared/api/documents.ts';
import { templateContentSchema, templatePlaceholders, templateTakesSignature, type TemplateContent } from '#shared/documents/blocks.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { accessTo, canEdit, forgetShares, sharedWith, type Access } from '../share/access.ts';
import { categoryNotFound, containsPattern, forbidden, IMAGE_CONTENT_MESSAGE, notFound, OWNER_ONLY_DELETE_MESSAGE, STARTER_NOT_FOUND_MESSAGE, templateNotFound, VIEW_ONLY_MESSAGE, type TemplatesQuery } from './messages.ts';
import { starterByKey } from './starters.ts';

/** Who is asking: a member of a firm. */
export interface Caller {
  userId: string;
  groupId: string;
}

/** A template's row without its content: what lists and access checks read (the content can be a megabyte of images). */
interface TemplateRow {
  id: string;
  owner_user_id: string;
  owner_name: string;
  category_id: string | null;
  name: string;
  description: string;
  placeholders: string;
  takes_signature: number;
  updated_at: string;
}

/** The content as stored; a row that no longer reads (never written so) is shown empty rather than failing the list. */
function storedContent(json: string): TemplateContent {
  const parsed = templateContentSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : { blocks: [], styles: { font: 'sans', fontSize: 11, accentColor: '#1f4e79' } };
}

function summaryOf(row: TemplateRow, access: Access): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    categoryId: row.category_id,
    placeholders: JSON.parse(row.placeholders) as string[],
    takesSignature: row.takes_signature === 1,
    access,
    ownerName: row.owner_name,
    updatedAt: row.updated_at,
  };
}

const IMAGE_SIGNATURES: Record<string, number[]> = { png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], jpeg: [0xff, 0xd8, 0xff] };

/**
 * Image blocks are judged by their bytes, as every upload is (README: one upload rule): a data URL that
 * says PNG or JPEG must start as one. Only the first bytes are decoded; the PDF renderer reads the rest.
 */
function checkImages(content: TemplateContent): void {
  content.blocks.forEach((block, index) => {
    if (block.type !== 'image') return;
    const type = block.dataUrl.startsWith('data:image/png;base64,') ? 'png' : block.dataUrl.startsWith('data:image/jpeg;base64,') ? 'jpeg' : '';
    const start = Buffer.from(block.dataUrl.slice(block.dataUrl.indexOf(',') + 1, block.dataUrl.indexOf(',') + 17), 'base64');
    const signature = IMAGE_SIGNATURES[type] ?? [];
    if (signature.length === 0 || !signature.every((byte, at) => start[at] === byte)) {
      throw new HttpError(400, 'VALIDATION', IMAGE_CONTENT_MESSAGE, { issues: [{ path: `content.blocks.${index}.dataUrl`, message: IMAGE_CONTENT_MESSAGE }] });
    }
  });
}

/** The columns a template's content is stored in: the JSON, and what lists show of it. */
function storedForm(content: TemplateContent): { content: string; placeholders: string; takes_signature: number } {
  return { content: JSON.stringify(content), placeholders: JSON.stringify(templatePlaceholders(content)), takes_signature: templateTakesSignature(content) ? 1 : 0 };
}

const isUniqueViolation = (error: unknown) => /unique|duplicate key/i.test(error instanceof Error ? error.message : '');

/**
 * The document creator's categories (the firm's) and templates (the firm's, each seen by its owner and
 * by colleagues it is shared with: share/access.ts). Another firm's ids, and templates the caller may
 * not see, are 404.
 */
export class DocumentTemplates {
  constructor(private readonly deps: { db: Kysely<Database>; now: () => Date }) {}

  async categories(caller: Caller): Promise<Category[]> {
    const { db } = this.deps;
    const [categories, filed, shared] = await Promise.all([
      db.selectFrom('doc_categories').select(['id', 'name']).where('group_id', '=', caller.groupId).orderBy('name').execute(),
      // Only what counting needs: a template's content (its images) can be megabytes.
      db.selectFrom('doc_templates').select(['id', 'owner_user_id', 'category_id']).where('group_id', '=', caller.groupId).where('category_id', 'is not', null).execute(),
      sharedWith(db, 'template', caller.userId),
    ]);
    const counts = new Map<string, number>();
    for (const row of filed) {
      if (row.category_id && (row.owner_user_id === caller.userId || shared.has(row.id))) counts.set(row.category_id, (counts.get(row.category_id) ?? 0) + 1);
    }
    return categories.map((category) => ({ id: category.id, name: category.name, templates: counts.get(category.id) ?? 0 }));
  }

  async createCategory(caller: Caller, body: CategoryBody): Promise<Category> {
    const id = randomUUID();
    await this.assertNameFree(caller.groupId, body.name, null);
    try {
      await this.deps.db.insertInto('doc_categories').values({ id, group_id: caller.groupId, name: body.name, created_at: this.deps.now().toISOString() }).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'CATEGORY_TAKEN', CATEGORY_TAKEN_MESSAGE);
      throw error;
    }
    return { id, name: body.name, templates: 0 };
  }

  async renameCategory(caller: Caller, id: string, body: CategoryBody): Promise<Category> {
    await this.category(caller.groupId, id);
    await this.assertNameFree(caller.groupId, body.name, id);
    try {
      await this.deps.db.updateTable('doc_categories').set({ name: body.name }).where('id', '=', id).where('group_id', '=', caller.groupId).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'CATEGORY_TAKEN', CATEGORY_TAKEN_MESSAGE);
      throw error;
    }
    const category = (await this.categories(caller)).find((one) => one.id === id);
    return category ?? { id, name: body.name, templates: 0 };
  }

  /** Its templates stay, without category. */
  async deleteCategory(caller: Caller, id: string): Promise<void> {
    await this.category(caller.groupId, id);
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('doc_templates').set({ category_id: null }).where('category_id', '=', id).where('group_id', '=', caller.groupId).execute();
      await trx.deleteFrom('doc_categories').where('id', '=', id).where('group_id', '=', caller.groupId).execute();
    });
  }

  async list(caller: Caller, query: TemplatesQuery): Promise<TemplateSummary[]> {
    const rows = await this.visibleRows(caller, query);
    return rows.filter(({ access }) => query.scope === 'all' || (query.scope === 'own') === (access === 'owner')).map(({ row, access }) => summaryOf(row, access));
  }

  /** One template the caller may see, with their access to it. */
  async get(caller: Caller, id: string): Promise<Template> {
    const { row, access } = await this.visible(caller, id);
    return { ...summaryOf(row, access), content: await this.content(id) };
  }

  /** The template's content for generating a document (the caller must see it). */
  async contentFor(caller: Caller, id: string): Promise<{ name: string; content: TemplateContent }> {
    const { row } = await this.visible(caller, id);
    return { name: row.name, content: await this.content(id) };
  }

  async create(caller: Caller, body: TemplateBody, starterKey: string | null = null): Promise<Template> {
    checkImages(body.content);
    if (body.categoryId !== null) await this.category(caller.groupId, body.categoryId);
    const id = randomUUID();
    const at = this.deps.now().toISOString();
    const stored = storedForm(body.content);
    await this.deps.db
      .insertInto('doc_templates')
      .values({ id, group_id: caller.groupId, owner_user_id: caller.userId, category_id: body.categoryId, name: body.name, description: body.description, ...stored, starter_key: starterKey, created_at: at, updated_at: at })
      .execute();
    return this.written(id, 'owner', body, stored, at);
  }

  /** The caller's own copy of a starter (starters.ts). */
  async useStarter(caller: Caller, key: string): Promise<Template> {
    const starter = starterByKey(key);
    if (!starter) throw notFound(STARTER_NOT_FOUND_MESSAGE);
    return this.create(caller, { name: starter.name, description: starter.description, categoryId: null, content: starter.content }, starter.key);
  }

  /** The owner, or a colleague with 'edit' access. */
  async update(caller: Caller, id: string, body: TemplateBody): Promise<Template> {
    const { access } = await this.visible(caller, id);
    if (!canEdit(access)) throw forbidden(VIEW_ONLY_MESSAGE);
    checkImages(body.content);
    if (body.categoryId !== null) await this.category(caller.groupId, body.categoryId);
    const at = this.deps.now().toISOString();
    const stored = storedForm(body.content);
    await this.deps.db
      .updateTable('doc_templates')
      .set({ name: body.name, description: body.description, category_id: body.categoryId, ...stored, updated_at: at })
      .where('id', '=', id)
      .where('group_id', '=', caller.groupId)
      .execute();
    return this.written(id, access, body, stored, at);
  }

  /** What a write answers, from what was written: the content is not read back (it can be a megabyte). */
  private async written(id: string, access: Access, body: TemplateBody, { placeholders, takes_signature }: ReturnType<typeof storedForm>, at: string): Promise<Template> {
    const owner = await this.deps.db.selectFrom('doc_templates as t').innerJoin('users as u', 'u.id', 't.owner_user_id').select('u.name').where('t.id', '=', id).executeTakeFirstOrThrow();
    const row: TemplateRow = { id, owner_user_id: '', owner_name: owner.name, category_id: body.categoryId, name: body.name, description: body.description, placeholders, takes_signature, updated_at: at };
    return { ...summaryOf(row, access), content: body.content };
  }

  private async content(id: string): Promise<TemplateContent> {
    const row = await this.deps.db.selectFrom('doc_templates').select('content').where('id', '=', id).executeTakeFirstOrThrow();
    return storedContent(row.content);
  }

  /** The owner only; grants to it go too. Documents made from it stay (without template). */
  async delete(caller: Caller, id: string): Promise<void> {
    const { access } = await this.visible(caller, id);
    if (access !== 'owner') throw forbidden(OWNER_ONLY_DELETE_MESSAGE);
    await this.deps.db.deleteFrom('doc_templates').where('id', '=', id).where('group_id', '=', caller.groupId).execute();
    await forgetShares(this.deps.db, 'template', id);
  }

  private async category(groupId: string, id: string): Promise<void> {
    const row = await this.deps.db.selectFrom('doc_categories').select('id').where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst();
    if (!row) throw categoryNotFound();
  }

  private async assertNameFree(groupId: string, name: string, exceptId: string | null): Promise<void> {
    let query = this.deps.db.selectFrom('doc_categories').select('id').where('group_id', '=', groupId).where('name', '=', name);
    if (exceptId) query = query.where('id', '<>', exceptId);
    if (await query.executeTakeFirst()) throw new HttpError(409, 'CATEGORY_TAKEN', CATEGORY_TAKEN_MESSAGE);
  }

  private rows(groupId: string) {
    return this.deps.db
      .selectFrom('doc_templates as t')
      .innerJoin('users as u', 'u.id', 't.owner_user_id')
      .select(['t.id', 't.owner_user_id', 'u.name as owner_name', 't.category_id', 't.name', 't.description', 't.placeholders', 't.takes_signature', 't.updated_at'])
      .where('t.group_id', '=', groupId);
  }

  /** The firm's templates the caller may see (own or shared with them), newest first, filtered. */
  private async visibleRows(caller: Caller, query: Partial<TemplatesQuery> = {}): Promise<{ row: TemplateRow; access: Access }[]> {
    const shared = await sharedWith(this.deps.db, 'template', caller.userId);
    let select = this.rows(caller.groupId);
    select = shared.size > 0 ? select.where((eb) => eb.or([eb('t.owner_user_id', '=', caller.userId), eb('t.id', 'in', [...shared.keys()])])) : select.where('t.owner_user_id', '=', caller.userId);
    if (query.categoryId) select = select.where('t.category_id', '=', query.categoryId);
    if (query.q) select = select.where(sql<boolean>`lower(t.name) like ${containsPattern(query.q)} escape '\\'`);
    const rows = await select.orderBy('t.updated_at', 'desc').orderBy('t.id').execute();
    return rows.map((row) => ({ row, access: row.owner_user_id === caller.userId ? 'owner' : (shared.get(row.id) ?? 'view') }));
  }

  private async visible(caller: Caller, id: string): Promise<{ row: TemplateRow; access: Access }> {
    const row = await this.rows(caller.groupId).where('t.id', '=', id).executeTakeFirst();
    const access = row ? await accessTo(this.deps.db, 'template', { id: row.id, ownerUserId: row.owner_user_id }, caller.userId) : null;
    if (!row || !access) throw templateNotFound();
    return { row, access };
  }
}
