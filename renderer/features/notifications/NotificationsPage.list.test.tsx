/** /notifications: the view in the address, the debounced search, server sorting and the empty states. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NO_NOTIFICATIONS_MESSAGE } from '#shared/api/notifications.ts';
import { currentQuery, listQueries, notification, ok, pageRoutes, renderNotifications, setUpNotificationsTests, stubApi, summary } from './test/renderNotifications.tsx';

setUpNotificationsTests();

const sortHeader = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });
const columnHeader = (name: string) => sortHeader(name).closest('th') as HTMLElement;

describe('NotificationsPage list', () => {
  it('asks the server for the view in the address and shows it, so a shared or reloaded link keeps it', async () => {
    const calls = stubApi(pageRoutes([notification()]));
    const path = '/notifications?sortby=caducidad&sortdir=asc&search=hacienda&disposicion=2026-11-01..2026-11-30&caducidad=..2026-12-10&view=todas&page=2';
    renderNotifications(path);
    await screen.findByText('Requerimiento de información');
    const query = listQueries(calls)[0];
    expect(query && Object.fromEntries(query)).toEqual({
      sortby: 'caducidad', sortdir: 'asc', view: 'todas', page: '2', pageSize: '25', search: 'hacienda', disposicion: '2026-11-01..2026-11-30', caducidad: '..2026-12-10',
    });
    expect((screen.getByRole('searchbox', { name: 'Buscar notificaciones' }) as HTMLInputElement).value).toBe('hacienda');
    expect(columnHeader('Caducidad').getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('radio', { name: 'Todas' }).getAttribute('aria-checked')).toBe('true');
    const chips = screen.getByRole('group', { name: 'Filtros activos' });
    expect(within(chips).getByText('Búsqueda: hacienda')).toBeTruthy();
    expect(within(chips).getByText('Fecha de disposición: 01/11/2026 – 30/11/2026')).toBeTruthy();
    // Removing a chip drops that filter from the address and from the next request.
    fireEvent.click(within(chips).getByRole('button', { name: 'Quitar el filtro Búsqueda: hacienda' }));
    await waitFor(() => expect(currentQuery()).not.toContain('search='));
    expect(currentQuery()).toContain('sortby=caducidad');
    await waitFor(() => expect(listQueries(calls).at(-1)?.get('search')).toBeNull());
  });

  it('sends one request after the typing pauses for 400 ms, not one per key', async () => {
    const calls = stubApi(pageRoutes([notification()]));
    renderNotifications();
    await screen.findByText('Requerimiento de información');
    const before = listQueries(calls).length;
    const box = screen.getByRole('searchbox', { name: 'Buscar notificaciones' });
    for (const text of ['h', 'ha', 'hac', 'haci']) fireEvent.change(box, { target: { value: text } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listQueries(calls).length).toBe(before);
    await waitFor(() => expect(currentQuery()).toBe('?search=haci'), { timeout: 2000 });
    await waitFor(() => expect(listQueries(calls).length).toBe(before + 1));
    expect(listQueries(calls).at(-1)?.get('search')).toBe('haci');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(listQueries(calls).length).toBe(before + 1);
  });

  it('sorts by titular descending by default; the same column toggles, a new one starts descending', async () => {
    const calls = stubApi(pageRoutes([notification()]));
    renderNotifications();
    await screen.findByText('Requerimiento de información');
    expect(Object.fromEntries(listQueries(calls)[0] ?? [])).toMatchObject({ sortby: 'titular', sortdir: 'desc' });
    expect(columnHeader('Titular').getAttribute('aria-sort')).toBe('descending');
    expect(columnHeader('Concepto').getAttribute('aria-sort')).toBe('none');

    fireEvent.click(sortHeader('Titular'));
    await waitFor(() => expect(currentQuery()).toBe('?sortby=titular&sortdir=asc'));
    expect(columnHeader('Titular').getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(sortHeader('Concepto'));
    await waitFor(() => expect(currentQuery()).toBe('?sortby=concepto&sortdir=desc'));
    expect(columnHeader('Concepto').getAttribute('aria-sort')).toBe('descending');
    expect(columnHeader('Titular').getAttribute('aria-sort')).toBe('none');
    await waitFor(() => expect(Object.fromEntries(listQueries(calls).at(-1) ?? [])).toMatchObject({ sortby: 'concepto', sortdir: 'desc' }));

    fireEvent.click(sortHeader('Concepto'));
    await waitFor(() => expect(currentQuery()).toBe('?sortby=concepto&sortdir=asc'));
  });

  it('shows each row\'s deadline in words as well as colour', async () => {
    const today = new Date();
    const inTwoDays = new Date(today.getTime() + 2 * 86_400_000).toISOString();
    stubApi(pageRoutes([
      notification({ _id: '33333333-3333-4333-8333-333333333331', concepto: 'Hoy', caducidad: today.toISOString() }),
      notification({ _id: '33333333-3333-4333-8333-333333333332', concepto: 'Dos', caducidad: inTwoDays }),
      notification({ _id: '33333333-3333-4333-8333-333333333333', concepto: 'Pasada', caducidad: new Date(today.getTime() - 3 * 86_400_000).toISOString() }),
      notification({ _id: '33333333-3333-4333-8333-333333333334', concepto: 'Aviso', tipo: 'comunicacion', caducidad: null }),
    ]));
    renderNotifications();
    const row = async (concepto: string) => (await screen.findByText(concepto)).closest('tr') as HTMLElement;
    expect((await row('Hoy')).textContent).toContain('Caduca hoy');
    expect((await row('Dos')).textContent).toContain('Quedan 2 días');
    expect((await row('Pasada')).textContent).toContain('Caducada');
    expect(within(await row('Aviso')).getByLabelText('Comunicación').textContent).toBe('—');
  });

  it('says the firm never updated its notifications, with a way to the configuration', async () => {
    stubApi(pageRoutes([], { 'GET /api/notifications/summary': ok(summary({ lastUpdateAt: null })), 'GET /api/notifications/certificates': ok({ items: [] }) }));
    renderNotifications();
    expect(await screen.findByRole('heading', { name: NO_NOTIFICATIONS_MESSAGE })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ir a la configuración' }));
    await waitFor(() => expect(currentQuery()).toBe('?section=config'));
  });

  it('says when the search or filters leave nothing, apart from the never-updated message', async () => {
    stubApi(pageRoutes([], { 'GET /api/notifications/summary': ok(summary({ lastUpdateAt: null })) }));
    renderNotifications('/notifications?search=zzz');
    expect(await screen.findByRole('heading', { name: 'Ninguna notificación coincide con la búsqueda o los filtros.' })).toBeTruthy();
    expect(screen.queryByText(NO_NOTIFICATIONS_MESSAGE)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    expect(await screen.findByRole('heading', { name: NO_NOTIFICATIONS_MESSAGE })).toBeTruthy();
  });
});

describe('NotificationsPage date filters', () => {
  it('writes a date range from the filter popup to the address once the typing pauses, and refuses one that runs backwards', async () => {
    const calls = stubApi(pageRoutes([notification()]));
    renderNotifications();
    await screen.findByText('Requerimiento de información');
    fireEvent.click(screen.getByRole('button', { name: 'Filtros' }));
    const popup = await screen.findByRole('dialog', { name: 'Filtrar por fechas' });
    const caducidad = within(popup).getByRole('group', { name: 'Fecha de caducidad' });
    fireEvent.change(within(caducidad).getByLabelText('Desde'), { target: { value: '2026-12-10' } });
    fireEvent.change(within(caducidad).getByLabelText('Hasta'), { target: { value: '2026-12-01' } });
    expect((await within(caducidad).findByRole('alert')).textContent).toBe('La fecha final no puede ser anterior a la inicial.');
    fireEvent.change(within(caducidad).getByLabelText('Hasta'), { target: { value: '2026-12-31' } });
    await waitFor(() => expect(currentQuery()).toBe('?caducidad=2026-12-10..2026-12-31'));
    await waitFor(() => expect(listQueries(calls).at(-1)?.get('caducidad')).toBe('2026-12-10..2026-12-31'));
    // Neither the half-typed range nor the backwards one reached the server.
    expect(listQueries(calls).filter((query) => query.has('caducidad')).map((query) => query.get('caducidad'))).toEqual(['2026-12-10..2026-12-31']);
  });

  it('applies a range typed just before the popup closes instead of dropping it', async () => {
    stubApi(pageRoutes([notification()]));
    renderNotifications();
    await screen.findByText('Requerimiento de información');
    fireEvent.click(screen.getByRole('button', { name: 'Filtros' }));
    const popup = await screen.findByRole('dialog', { name: 'Filtrar por fechas' });
    const caducidad = within(popup).getByRole('group', { name: 'Fecha de caducidad' });
    fireEvent.change(within(caducidad).getByLabelText('Desde'), { target: { value: '2026-12-10' } });
    fireEvent.change(within(caducidad).getByLabelText('Hasta'), { target: { value: '2026-12-31' } });
    fireEvent.keyDown(popup, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Filtrar por fechas' })).toBeNull());
    await waitFor(() => expect(currentQuery()).toBe('?caducidad=2026-12-10..2026-12-31'));
  });

  it('a page past the end: shows the last page the server served, and the address follows it', async () => {
    const calls = stubApi(pageRoutes([], {
      'GET /api/notifications': ({ url }) => {
        const asked = Number(url.searchParams.get('page'));
        return ok({ total: 30, page: Math.min(asked, 2), items: [notification({ concepto: `Página ${Math.min(asked, 2)}` })] })({ key: '', url, body: undefined });
      },
    }));
    renderNotifications('/notifications?page=9');
    expect(await screen.findByText('Página 2')).toBeTruthy();
    await waitFor(() => expect(currentQuery()).toBe('?page=2'));
    expect(screen.queryByText('No hay notificaciones en esta vista.')).toBeNull();
    expect(listQueries(calls).map((query) => query.get('page'))).toContain('2');
  });
});
