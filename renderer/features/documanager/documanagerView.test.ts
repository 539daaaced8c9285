import { describe, expect, it } from 'vitest';
import { hasFilters, readView, retentionText, toQuery, writeView } from './documanagerView.ts';

describe('the document manager view in the address', () => {
  it('reads kind, company, search and page, and falls back on anything unreadable', () => {
    expect(readView(new URLSearchParams('kind=fie&company=Talleres%20Ruiz%20SL&q=modelo&page=3'))).toEqual({ kind: 'fie', company: 'Talleres Ruiz SL', q: 'modelo', page: 3 });
    expect(readView(new URLSearchParams('kind=contracts&page=0'))).toEqual({ kind: '', company: '', q: '', page: 1 });
    expect(readView(new URLSearchParams('page=abc')).page).toBe(1);
    expect(readView(new URLSearchParams('page=2.5')).page).toBe(1);
    expect(readView(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(200);
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(writeView({ kind: '', company: '', q: '  ', page: 1 }).toString()).toBe('');
    const view = { kind: 'submission', company: 'Bar Pepe', q: 'RGPD', page: 2 } as const;
    expect(writeView(view).toString()).toBe('kind=submission&company=Bar+Pepe&q=RGPD&page=2');
    expect(readView(writeView(view))).toEqual(view);
  });

  it('sends the API only the filters that are set', () => {
    expect(toQuery({ kind: '', company: '', q: '', page: 1 })).toEqual({});
    expect(toQuery({ kind: 'dehu', company: 'Bar Pepe', q: ' multa ', page: 4 })).toEqual({ kind: 'dehu', company: 'Bar Pepe', q: 'multa', page: 4 });
    expect(hasFilters({ kind: '', company: '', q: ' ', page: 3 })).toBe(false);
    expect(hasFilters({ kind: '', company: 'Bar Pepe', q: '', page: 1 })).toBe(true);
  });

  it('says until when a document is kept, on the Madrid day', () => {
    // 23:30 UTC on 31 December is already 1 January in Madrid.
    expect(retentionText({ expiresAt: '2026-12-31T23:30:00.000Z' })).toBe('Se conserva hasta 01/01/2027');
    expect(retentionText({ expiresAt: null })).toBe('Se conserva hasta que lo borres');
  });
});
