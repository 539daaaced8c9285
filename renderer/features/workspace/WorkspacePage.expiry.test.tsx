/** Mis recursos, Caducidades: the certificates expiring in the next 60 days. */
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  describe('on a phone', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('shows each certificate as a card with every field labelled, soonest first, and no table', async () => {
      // A phone-narrow screen: the radar's (max-width) media query matches.
      vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener: () => {}, removeEventListener: () => {} }));
      const items = [
        expiring({ commonName: 'LEJOS DEMO', daysLeft: 45, threshold: 60 }),
        expiring({ commonName: 'PRONTO DEMO', daysLeft: 3, threshold: 7, nifVat: 'B00000000' }),
      ];
      stubApi({ 'GET /api/certificates/expiring': radar(items) });
      renderWorkspace({ path: '/workspace?vista=caducidades' });

      const cards = within(await screen.findByRole('list', { name: 'Certificados por caducar' })).getAllByRole('listitem');
      expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['PRONTO DEMO', 'LEJOS DEMO']);
      const fields = Object.fromEntries(within(cards[0] as HTMLElement).getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]));
      const date = new Date(items[1]?.notAfter ?? '').toLocaleDateString('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' });
      expect(fields).toEqual({ 'Días restantes': '3 días', Caduca: date, NIF: 'B00000000', Dispositivo: 'PC Oficina', Aviso: '≤ 7 días' });
      expect(screen.queryByRole('table')).toBeNull();
    });
  });

  it('says when nothing expires in the next 60 days', async () => {
    stubApi({ 'GET /api/certificates/expiring': radar([]), 'GET /api/machines': machinesOf([]) });
    renderWorkspace();
    fireEvent.click(screen.getByRole('tab', { name: 'Caducidades' }));
    expect(await screen.findByRole('region', { name: 'Ningún certificado caduca en los próximos 60 días' })).toBeTruthy();
  });
});
