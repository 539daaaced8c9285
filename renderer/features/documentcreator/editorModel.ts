import { DEFAULT_DOCUMENT_STYLES, MAX_BLOCKS, MAX_LIST_ITEMS, MAX_TABLE_COLUMNS, MAX_TABLE_ROWS } from '#shared/documents/blocks.ts';
import type { Block, BlockType, DocumentStyles } from '#shared/documents/blocks.ts';
import type { Template, TemplateBody } from '#shared/api/documents.ts';

/**
 * The template editor's state and its one reducer: the template's fields and its blocks, each with a
 * stable key for React (a block has no id of its own in the contract). Pure, so it is tested alone.
 */
export interface EditorBlock {
  key: string;
  block: Block;
}

export interface EditorState {
  name: string;
  description: string;
  categoryId: string | null;
  styles: DocumentStyles;
  blocks: EditorBlock[];
  /** The next block key's number. */
  nextKey: number;
}

export type EditorAction =
  | { type: 'set'; field: 'name' | 'description'; value: string }
  | { type: 'category'; categoryId: string | null }
  | { type: 'styles'; styles: Partial<DocumentStyles> }
  | { type: 'add'; blockType: BlockType; after?: string }
  | { type: 'update'; key: string; block: Block }
  | { type: 'text'; key: string; path: TextPath; value: string }
  | { type: 'move'; key: string; by: -1 | 1 }
  | { type: 'remove'; key: string }
  | { type: 'load'; state: EditorState };

/** Which text of a block: its text, caption or description, a list item, or a table cell. */
export type TextPath = 'text' | 'label' | 'alt' | { item: number } | { row: number; column: number };

/** The text at `path` of a block ('' when the block has no such text). */
export function blockText(block: Block, path: TextPath): string {
  if (typeof path === 'object') {
    if ('item' in path) return block.type === 'list' ? (block.items[path.item] ?? '') : '';
    return block.type === 'table' ? (block.rows[path.row]?.[path.column] ?? '') : '';
  }
  if (path === 'text') return block.type === 'heading' || block.type === 'paragraph' ? block.text : '';
  if (path === 'label') return block.type === 'signature' ? block.label : '';
  return block.type === 'image' ? block.alt : '';
}

/** The block with the text at `path` replaced; a path the block does not have changes nothing. */
export function setBlockText(block: Block, path: TextPath, value: string): Block {
  if (typeof path === 'object') {
    if ('item' in path) return block.type === 'list' ? { ...block, items: setListItem(block.items, path.item, value) } : block;
    return block.type === 'table' ? { ...block, rows: setCell(block.rows, path.row, path.column, value) } : block;
  }
  if (path === 'text') return block.type === 'heading' || block.type === 'paragraph' ? { ...block, text: value } : block;
  if (path === 'label') return block.type === 'signature' ? { ...block, label: value } : block;
  return block.type === 'image' ? { ...block, alt: value } : block;
}

/** A new block of a type, with what it needs to be valid and show something. */
export function newBlock(type: BlockType): Block {
  switch (type) {
    case 'heading':
      return { type, level: 1, text: '' };
    case 'paragraph':
      return { type, text: '' };
    case 'list':
      return { type, ordered: false, items: [''] };
    case 'table':
      return { type, header: true, rows: [['', ''], ['', '']] };
    case 'pageBreak':
      return { type };
    case 'image':
      return { type, dataUrl: '', width: 50, alt: '' };
    case 'signature':
      return { type, label: 'Firma' };
  }
}

export function initialEditorState(template?: Pick<Template, 'name' | 'description' | 'categoryId' | 'content'>, categoryId: string | null = null): EditorState {
  const blocks = template?.content.blocks ?? [];
  return {
    name: template?.name ?? '',
    description: template?.description ?? '',
    categoryId: template ? template.categoryId : categoryId,
    styles: template?.content.styles ?? DEFAULT_DOCUMENT_STYLES,
    blocks: blocks.map((block, index) => ({ key: `b${index + 1}`, block })),
    nextKey: blocks.length + 1,
  };
}

function moved<T>(items: readonly T[], from: number, to: number): T[] {
  if (from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(to, 0, item);
  return copy;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'set':
      return { ...state, [action.field]: action.value };
    case 'category':
      return { ...state, categoryId: action.categoryId };
    case 'styles':
      return { ...state, styles: { ...state.styles, ...action.styles } };
    case 'add': {
      if (state.blocks.length >= MAX_BLOCKS) return state;
      const entry = { key: `b${state.nextKey}`, block: newBlock(action.blockType) };
      const at = action.after === undefined ? -1 : state.blocks.findIndex((item) => item.key === action.after);
      const blocks = at < 0 ? [...state.blocks, entry] : [...state.blocks.slice(0, at + 1), entry, ...state.blocks.slice(at + 1)];
      return { ...state, blocks, nextKey: state.nextKey + 1 };
    }
    case 'update':
      return { ...state, blocks: state.blocks.map((item) => (item.key === action.key ? { ...item, block: action.block } : item)) };
    case 'text':
      return { ...state, blocks: state.blocks.map((item) => (item.key === action.key ? { ...item, block: setBlockText(item.block, action.path, action.value) } : item)) };
    case 'move': {
      const from = state.blocks.findIndex((item) => item.key === action.key);
      return { ...state, blocks: moved(state.blocks, from, from + action.by) };
    }
    case 'remove':
      return { ...state, blocks: state.blocks.filter((item) => item.key !== action.key) };
    case 'load':
      return action.state;
  }
}

/** What PUT/POST templates is sent. */
export function editorBody(state: EditorState): TemplateBody {
  return {
    name: state.name.trim(),
    description: state.description,
    categoryId: state.categoryId,
    content: { blocks: state.blocks.map((item) => item.block), styles: state.styles },
  };
}

/** Whether the editor holds changes the server does not have. */
export function isDirty(state: EditorState, saved: EditorState): boolean {
  return JSON.stringify(editorBody(state)) !== JSON.stringify(editorBody(saved));
}

// ---------------------------------------------------------------------------------------------------
// List and table edits (kept beside the reducer: the block editor only calls these)

export function setListItem(items: readonly string[], index: number, value: string): string[] {
  return items.map((item, at) => (at === index ? value : item));
}
export function addListItem(items: readonly string[]): string[] {
  return items.length >= MAX_LIST_ITEMS ? [...items] : [...items, ''];
}
export function removeListItem(items: readonly string[], index: number): string[] {
  const rest = items.filter((_, at) => at !== index);
  return rest.length === 0 ? [''] : rest;
}

export function setCell(rows: readonly string[][], row: number, column: number, value: string): string[][] {
  return rows.map((cells, r) => (r === row ? cells.map((cell, c) => (c === column ? value : cell)) : [...cells]));
}
export function addRow(rows: readonly string[][]): string[][] {
  if (rows.length >= MAX_TABLE_ROWS) return rows.map((cells) => [...cells]);
  const columns = rows[0]?.length ?? 1;
  return [...rows.map((cells) => [...cells]), Array.from({ length: columns }, () => '')];
}
export function removeRow(rows: readonly string[][]): string[][] {
  return rows.length <= 1 ? rows.map((cells) => [...cells]) : rows.slice(0, -1).map((cells) => [...cells]);
}
export function addColumn(rows: readonly string[][]): string[][] {
  if ((rows[0]?.length ?? 0) >= MAX_TABLE_COLUMNS) return rows.map((cells) => [...cells]);
  return rows.map((cells) => [...cells, '']);
}
export function removeColumn(rows: readonly string[][]): string[][] {
  if ((rows[0]?.length ?? 0) <= 1) return rows.map((cells) => [...cells]);
  return rows.map((cells) => cells.slice(0, -1));
}

// ---------------------------------------------------------------------------------------------------
// 'Insertar campo'

export type InsertKind = 'field' | 'if' | 'DATESTAMP' | 'DATETIMESTAMP' | 'TIMESTAMP' | 'SIGNATURE';

/** The placeholder text for an insertion; an IF wraps the selected text (or leaves room for it). */
export function placeholderSnippet(kind: InsertKind, fieldName: string, selected: string): string {
  switch (kind) {
    case 'field':
      return `[[${fieldName.trim()}]]`;
    case 'if':
      return `[[IF ${fieldName.trim()}]]${selected}[[/IF]]`;
    default:
      return `[[${kind}]]`;
  }
}

/** The text with `snippet` in place of [start, end), and where the caret goes after it. */
export function insertAt(value: string, start: number, end: number, snippet: string): { value: string; caret: number } {
  const from = Math.max(0, Math.min(start, value.length));
  const to = Math.max(from, Math.min(end, value.length));
  return { value: value.slice(0, from) + snippet + value.slice(to), caret: from + snippet.length };
}

/** A field name the IF and field insertions accept: not empty, no square brackets. */
export function fieldNameError(name: string): 'missing' | 'brackets' | null {
  if (name.trim() === '') return 'missing';
  return /[[\]]/.test(name) ? 'brackets' : null;
}

// ---------------------------------------------------------------------------------------------------
// The server's 400 issues placed on the editor

export interface EditorErrors {
  name?: string;
  description?: string;
  categoryId?: string;
  styles?: string;
  /** By block key. */
  blocks: Record<string, string>;
  /** Anything that has no place of its own. */
  other?: string;
}

/** Issues like 'name', 'content.blocks.3.text', 'content.styles.accentColor' on the fields they are about. */
export function placeIssues(state: EditorState, issues: readonly { path: string; message: string }[]): EditorErrors {
  const errors: EditorErrors = { blocks: {} };
  for (const { path, message } of issues) {
    const block = /^content\.blocks\.(\d+)/.exec(path);
    if (block) {
      const key = state.blocks[Number(block[1])]?.key;
      if (key !== undefined) errors.blocks[key] ??= message;
      else errors.other ??= message;
    } else if (path === 'name' || path === 'description' || path === 'categoryId') {
      errors[path] ??= message;
    } else if (path.startsWith('content.styles')) {
      errors.styles ??= message;
    } else {
      errors.other ??= message;
    }
  }
  return errors;
}

/** What the editor can tell before sending: the name, and image blocks still without an image. */
export function localErrors(state: EditorState, messages: { nameMissing: string; imageMissing: string }): EditorErrors {
  const errors: EditorErrors = { blocks: {} };
  if (state.name.trim() === '') errors.name = messages.nameMissing;
  for (const { key, block } of state.blocks) if (block.type === 'image' && block.dataUrl === '') errors.blocks[key] = messages.imageMissing;
  return errors;
}

export const hasErrors = (errors: EditorErrors) =>
  errors.name !== undefined || errors.description !== undefined || errors.categoryId !== undefined || errors.styles !== undefined || errors.other !== undefined || Object.keys(errors.blocks).length > 0;
