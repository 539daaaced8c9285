import { describe, expect, it } from 'vitest';
import { readView, writeView } from './view.ts';

describe('the document creator view in the address', () => {
  it('reads defaults for missing or unknown parameters', () => {
    expect(readView(new URLSearchParams('tab=nope&scope=x&page=-3'))).toEqual({
      tab: 'plantillas', category: null, q: '', scope: 'all', template: null, dq: '', dtemplate: null, page: 1,
    });
    expect(readView(new URLSearchParams('tab=documentos&dq=alta&dtemplate=t1&page=3')).page).toBe(3);
    expect(readView(new URLSearchParams('form=f1')).tab).toBe('formularios');
  });

  it('writes only what changed, leaves defaults out, and goes back to page 1 on a new filter', () => {
    const start = new URLSearchParams('tab=documentos&page=4&dq=alta&other=1');
    expect(writeView(start, { dtemplate: 't1' }).toString()).toBe('tab=documentos&dq=alta&other=1&dtemplate=t1');
    expect(writeView(start, { page: 5 }).get('page')).toBe('5');
    expect(writeView(start, { tab: 'plantillas', template: 'nueva' }).toString()).toBe('page=4&dq=alta&other=1&template=nueva');
    expect(writeView(new URLSearchParams('tab=formularios&form=f1'), { tab: 'documentos' }).toString()).toBe('tab=documentos');
    expect(writeView(new URLSearchParams('scope=own'), { scope: 'all', category: null }).toString()).toBe('');
  });
});
