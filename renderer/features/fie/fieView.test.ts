import { describe, expect, it } from 'vitest';
import { isBadDayRange } from '../../ui/dayRange.ts';
import { readView, viewQuery, writeView } from './fieView.ts';

describe('fieView', () => {
  it('reads a link, dropping what is malformed', () => {
    const view = readView(new URLSearchParams('q=Ana&tipo=jub,alta,foo&desde=2025-13&hasta=2025-03-01&a3=raro&vista=conciliacion'));
    expect(view).toEqual({ q: 'Ana', types: ['alta', 'jub'], from: '', to: '2025-03-01', a3: '', tab: 'reconciliation' });
  });

  it('writes one change, keeping the rest of the address and removing emptied filters', () => {
    const next = writeView(new URLSearchParams('q=Ana&otro=1'), { q: '  ', types: ['cit', 'baja'], a3: 'synced', tab: 'list' });
    expect(next.toString()).toBe('otro=1&tipo=baja%2Ccit&a3=synced');
  });

  it("sends only the filters that are set, trimmed, and leaves out a 'Hasta' before 'Desde'", () => {
    const view = { q: ' 123 ', types: [], from: '2025-02-10', to: '2025-02-01', a3: '', tab: 'list' } as const;
    expect(isBadDayRange(view)).toBe(true);
    expect(viewQuery({ ...view, types: [] })).toEqual({ q: '123', from: '2025-02-10' });
    expect(viewQuery({ ...view, types: ['baja'], to: '2025-02-11', a3: 'error' })).toEqual({ q: '123', type: 'baja', from: '2025-02-10', to: '2025-02-11', a3: 'error' });
  });
});
