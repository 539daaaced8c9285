import { describe, expect, it } from 'vitest';
import { daysLeft, nextSort, readView, toQuery, writeView } from './notificationsView.ts';

describe('notifications view in the address', () => {
  it('reads back what it writes, and leaves the defaults out', () => {
    const params = new URLSearchParams('sortby=disposicion&sortdir=asc&search=aeat&disposicion=2026-01-01..&caducidad=..2026-02-01&view=realizadas&page=3&pageSize=50');
    const view = readView(params);
    expect(view).toEqual({
      sortby: 'disposicion', sortdir: 'asc', search: 'aeat', disposicion: { from: '2026-01-01', to: '' }, caducidad: { from: '', to: '2026-02-01' },
      view: 'realizadas', page: 3, pageSize: 50,
    });
    expect(readView(writeView(view))).toEqual(view);
    expect(writeView(readView(new URLSearchParams())).toString()).toBe('');
  });

  it('falls back to the defaults (titular desc, pendientes, page 1) for values it does not know', () => {
    expect(readView(new URLSearchParams('sortby=nada&sortdir=x&view=otra&page=-2&pageSize=7'))).toMatchObject({ sortby: 'titular', sortdir: 'desc', view: 'pendientes', page: 1, pageSize: 25 });
  });

  it('leaves a backwards range out of the server query', () => {
    const query = toQuery(readView(new URLSearchParams('disposicion=2026-03-01..2026-02-01&caducidad=2026-01-01..2026-01-31')));
    expect(query.disposicion).toBeUndefined();
    expect(query.caducidad).toBe('2026-01-01..2026-01-31');
  });

  it('toggles the sorted column and starts a new one descending', () => {
    expect(nextSort({ sortby: 'titular', sortdir: 'desc' }, 'titular')).toEqual({ sortby: 'titular', sortdir: 'asc' });
    expect(nextSort({ sortby: 'titular', sortdir: 'asc' }, 'titular')).toEqual({ sortby: 'titular', sortdir: 'desc' });
    expect(nextSort({ sortby: 'titular', sortdir: 'asc' }, 'caducidad')).toEqual({ sortby: 'caducidad', sortdir: 'desc' });
  });

  it('counts whole Madrid days to the caducidad', () => {
    const now = new Date('2026-11-26T22:30:00.000Z'); // 23:30 in Madrid, 26 Nov
    expect(daysLeft('2026-11-26T10:00:00.000Z', now)).toBe(0);
    expect(daysLeft('2026-11-26T23:30:00.000Z', now)).toBe(1); // 00:30 on 27 Nov in Madrid
    expect(daysLeft('2026-11-25T10:00:00.000Z', now)).toBe(-1);
  });
});
