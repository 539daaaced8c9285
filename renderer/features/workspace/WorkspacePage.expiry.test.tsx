/** Mis recursos, Caducidades: the certificates expiring in the next 60 days. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ExpiringCertificate } from '#shared/api/machines.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { machinesOf, renderWorkspace, setUpWorkspacePageTests, stubApi } from './test/renderWorkspace.tsx';
import { expiring } from './testData.ts';

setUpWorkspacePageTests();

describe('Caducidades', () => {
  const radar = (items: ExpiringCertificate[]) => () => jsonResponse(200, { items, days: 60 });

  it('opens from ?vista=caducidades and lists each certificate with its NIF, machine, date and days left', async () => {
    const items = [
      expiring({ commonName: 'CADUCADO DEMO', daysLeft: -5, threshold: 0 }),
      expiring({ commonName: 'PRONTO DEMO', daysLeft: 3, threshold: 7, nifVat: 'B00000000' }),
      expiring({ commonName: 'LEJOS DEMO', daysLeft: 45, threshold: 60 }),
    ];
    const calls = stubApi({ 'GET /api/certificates/expiring': radar(items) });
    renderWorkspace({ path: '/workspace?vista=caducidades' });

    expect(screen.getByRole('tab', { name: 'Caducidades' }).getAttribute('aria-selected')).toBe('true');
    const table = await screen.findByRole('table', { name: 'Certificados por caducar' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['CADUCADO DEMO', 'PRONTO DEMO', 'LEJOS DEMO']);
    const pronto = within(rows[1] as HTMLElement).getAllByRole('cell').map((cell) => cell.textContent);
    const date = new Date(items[1]?.notAfter ?? '').toLocaleDateString('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' });
    expect(pronto).toEqual(['PRONTO DEMO', '3 días', date, 'B00000000', 'PC Oficina', '≤ 7 días']);
    expect(within(rows[0] as HTMLElement).getByText('Hace 5 días').className).toContain('ui-chip--danger');
    expect(within(rows[0] as HTMLElement).getByText('Caducado')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('3 días').className).toContain('ui-chip--danger');
    expect(within(rows[2] as HTMLElement).getByText('45 días').className).toContain('ui-chip--notice');
    const summary = within(screen.getByRole('list', { name: 'Resumen por plazo' })).getAllByRole('listitem').map((item) => item.textContent);
    expect(summary).toEqual(['Caducado: 1', '≤ 7 días: 1', '≤ 60 días: 1']);
    expect(calls.map((call) => call.key)).toContain('GET /api/certificates/expiring?days=60');
  });

  it('says when nothing expires in the next 60 days', async () => {
    stubApi({ 'GET /api/certificates/expiring': radar([]), 'GET /api/machines': machinesOf([]) });
    renderWorkspace();
    fireEvent.click(screen.getByRole('tab', { name: 'Caducidades' }));
    expect(await screen.findByRole('region', { name: 'Ningún certificado caduca en los próximos 60 días' })).toBeTruthy();
  });
});
