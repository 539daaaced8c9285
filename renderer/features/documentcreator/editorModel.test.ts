import { describe, expect, it } from 'vitest';
import { templateBodySchema } from '#shared/api/documents.ts';
import type { Template } from '#shared/api/documents.ts';
import {
  addColumn, addRow, editorBody, editorReducer, fieldNameError, hasErrors, initialEditorState, insertAt, isDirty, localErrors, newBlock,
  placeIssues, placeholderSnippet, removeColumn, removeListItem, removeRow, setBlockText,
} from './editorModel.ts';
import type { EditorAction, EditorState } from './editorModel.ts';
import { BLOCK_TYPES, DEFAULT_DOCUMENT_STYLES, MAX_TABLE_COLUMNS } from '#shared/documents/blocks.ts';

const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);
const types = (state: EditorState) => state.blocks.map((item) => item.block.type);

const template: Pick<Template, 'name' | 'description' | 'categoryId' | 'content'> = {
  name: 'Autorización RED',
  description: '',
  categoryId: 'c1',
  content: {
    styles: { font: 'serif', fontSize: 12, accentColor: '#222222' },
    blocks: [
      { type: 'heading', level: 1, text: 'Autorización' },
      { type: 'paragraph', text: 'D. [[Nombre]] autoriza…' },
      { type: 'signature', label: 'Firma' },
    ],
  },
};

describe('editorReducer', () => {
  it('adds a block of every type, each valid for the server as it comes', () => {
    let state = initialEditorState(undefined, 'c2');
    for (const type of BLOCK_TYPES) state = editorReducer(state, { type: 'add', blockType: type });
    expect(types(state)).toEqual([...BLOCK_TYPES]);
    expect(state.categoryId).toBe('c2');
    expect(state.styles).toEqual(DEFAULT_DOCUMENT_STYLES);
    // Everything but the image (which waits for its file) passes the contract's schema.
    const body = editorBody({ ...state, name: 'Nueva', blocks: state.blocks.filter((item) => item.block.type !== 'image') });
    expect(templateBodySchema.safeParse(body).success).toBe(true);
    expect(new Set(state.blocks.map((item) => item.key)).size).toBe(BLOCK_TYPES.length);
  });

  it('adds after a given block, moves up and down within bounds, and removes by key', () => {
    const start = initialEditorState(template);
    const [heading, paragraph, signature] = start.blocks.map((item) => item.key) as [string, string, string];
    const added = run(start, { type: 'add', blockType: 'list', after: heading });
    expect(types(added)).toEqual(['heading', 'list', 'paragraph', 'signature']);
    expect(types(run(start, { type: 'move', key: signature, by: -1 }))).toEqual(['heading', 'signature', 'paragraph']);
    expect(types(run(start, { type: 'move', key: heading, by: 1 }))).toEqual(['paragraph', 'heading', 'signature']);
    // Past either end nothing moves.
    expect(types(run(start, { type: 'move', key: heading, by: -1 }))).toEqual(['heading', 'paragraph', 'signature']);
    expect(types(run(start, { type: 'move', key: signature, by: 1 }))).toEqual(['heading', 'paragraph', 'signature']);
    expect(types(run(start, { type: 'remove', key: paragraph }))).toEqual(['heading', 'signature']);
  });

  it('edits one text of a block by its path and leaves the rest alone', () => {
    const start = run(initialEditorState(), { type: 'add', blockType: 'table' }, { type: 'add', blockType: 'list' });
    const [table, list] = start.blocks.map((item) => item.key) as [string, string];
    const state = run(start,
      { type: 'text', key: table, path: { row: 1, column: 0 }, value: '[[NIF]]' },
      { type: 'text', key: list, path: { item: 0 }, value: 'Uno' },
      { type: 'text', key: list, path: 'text', value: 'ignored' },
    );
    expect(state.blocks[0]?.block).toEqual({ type: 'table', header: true, rows: [['', ''], ['[[NIF]]', '']] });
    expect(state.blocks[1]?.block).toEqual({ type: 'list', ordered: false, items: ['Uno'] });
  });

  it('knows when the editor holds unsaved changes', () => {
    const saved = initialEditorState(template);
    expect(isDirty(saved, saved)).toBe(false);
    const changed = run(saved, { type: 'set', field: 'name', value: 'Otra' });
    expect(isDirty(changed, saved)).toBe(true);
    expect(isDirty(run(changed, { type: 'set', field: 'name', value: 'Autorización RED' }), saved)).toBe(false);
    expect(isDirty(run(saved, { type: 'styles', styles: { fontSize: 9 } }), saved)).toBe(true);
  });
});

describe('list and table edits', () => {
  it('keeps at least one item, row and column, and at most the contract allows', () => {
    expect(removeListItem(['a'], 0)).toEqual(['']);
    expect(removeListItem(['a', 'b'], 0)).toEqual(['b']);
    expect(addRow([['a', 'b']])).toEqual([['a', 'b'], ['', '']]);
    expect(removeRow([['a']])).toEqual([['a']]);
    expect(removeColumn([['a'], ['b']])).toEqual([['a'], ['b']]);
    expect(removeColumn([['a', 'b']])).toEqual([['a']]);
    const wide = [Array.from({ length: MAX_TABLE_COLUMNS }, () => '')];
    expect(addColumn(wide)[0]).toHaveLength(MAX_TABLE_COLUMNS);
    expect(setBlockText(newBlock('pageBreak'), 'text', 'x')).toEqual({ type: 'pageBreak' });
  });
});

describe('Insertar campo', () => {
  it('puts the placeholder at the cursor, or in place of the selection, with the caret after it', () => {
    expect(insertAt('Hola , bienvenido', 5, 5, '[[Nombre]]')).toEqual({ value: 'Hola [[Nombre]], bienvenido', caret: 15 });
    expect(insertAt('abcdef', 2, 4, 'X')).toEqual({ value: 'abXef', caret: 3 });
    expect(insertAt('abc', 10, 12, 'X')).toEqual({ value: 'abcX', caret: 4 });
  });

  it('words each kind of placeholder; an IF wraps the selected text', () => {
    expect(placeholderSnippet('field', ' Fecha Alta ', '')).toBe('[[Fecha Alta]]');
    expect(placeholderSnippet('if', 'Menor', 'firma del tutor')).toBe('[[IF Menor]]firma del tutor[[/IF]]');
    expect(placeholderSnippet('DATESTAMP', '', '')).toBe('[[DATESTAMP]]');
    expect(placeholderSnippet('SIGNATURE', 'x', 'y')).toBe('[[SIGNATURE]]');
    expect(fieldNameError('  ')).toBe('missing');
    expect(fieldNameError('a]b')).toBe('brackets');
    expect(fieldNameError('NIF')).toBeNull();
  });
});

describe('errors on the editor', () => {
  it('places the server issues on the field or block they name', () => {
    const state = initialEditorState(template);
    const errors = placeIssues(state, [
      { path: 'name', message: 'Escribe el nombre de la plantilla' },
      { path: 'content.blocks.1.text', message: 'Como mucho 20.000 caracteres' },
      { path: 'content.styles.accentColor', message: 'Elige un color como #1f4e79' },
      { path: 'content.blocks.9.text', message: 'Lejos' },
    ]);
    expect(errors.name).toBe('Escribe el nombre de la plantilla');
    expect(errors.blocks).toEqual({ [state.blocks[1]?.key ?? '']: 'Como mucho 20.000 caracteres' });
    expect(errors.styles).toBe('Elige un color como #1f4e79');
    expect(errors.other).toBe('Lejos');
    expect(hasErrors(errors)).toBe(true);
    expect(hasErrors(placeIssues(state, []))).toBe(false);
  });

  it('finds a missing name and an image block without its image before sending', () => {
    const state = run(initialEditorState(), { type: 'add', blockType: 'image' });
    const errors = localErrors(state, { nameMissing: 'nombre', imageMissing: 'imagen' });
    expect(errors.name).toBe('nombre');
    expect(Object.values(errors.blocks)).toEqual(['imagen']);
  });
});
