/** The configuration view: certificates grouped by machine, select all per machine, save replaces the watched set. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SyncedCertificate } from '#shared/api/machines.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { FINGERPRINT_A, FINGERPRINT_B, MACHINE_HERE, MACHINE_OFFICE, machine, ok, pageRoutes, renderNotifications, setUpNotificationsTests, stubApi, watched } from './test/renderNotifications.tsx';

setUpNotificationsTests();

function synced(fingerprint: string, commonName: string, machineId: string, machineName: string): SyncedCertificate {
  return {
    _id: fingerprint.slice(0, 8), fingerprint, serialNumber: '1', subjectString: `CN=${commonName}`, subject: { CN: commonName }, issuer: 'AC FNMT', notBefore: '2025-01-01T00:00:00Z',
    notAfter: '2028-01-01T00:00:00Z', nifVat: null, kind: 'person', store: 'nss', machine: { _id: machineId, name: machineName }, syncedAt: '2026-01-01T00:00:00Z',
  };
}
const FINGERPRINT_C = 'c'.repeat(64);

describe('NotificationsConfig', () => {
  it('lists the synced certificates per machine with the last update, and saves the ticked ones', async () => {
    const machines = [
      machine({ _id: MACHINE_HERE, savedAs: 'PC-ANA', certificates: [synced(FINGERPRINT_A, 'TALLERES NORTE SL', MACHINE_HERE, 'PC-ANA'), synced(FINGERPRINT_C, 'ANA GARCÍA', MACHINE_HERE, 'PC-ANA')] }),
      machine({ _id: MACHINE_OFFICE, savedAs: 'PC-OFICINA', mine: false, shared: true, online: false, certificates: [synced(FINGERPRINT_B, 'OTRA SL', MACHINE_OFFICE, 'PC-OFICINA')] }),
    ];
    const current = watched({ lastUpdate: { state: 'done', startedAt: '2026-11-25T08:00:00.000Z', finishedAt: '2026-11-25T08:01:00.000Z', found: 3, added: 1, message: null } });
    const calls = stubApi(pageRoutes([], {
      'GET /api/machines': ok({ items: machines }),
      'GET /api/notifications/certificates': ok({ items: [current] }),
      'PUT /api/notifications/certificates': () => jsonResponse(200, { items: [current] }),
    }));
    renderNotifications('/notifications?section=config');
    const here = (await screen.findByText('PC-ANA', { selector: 'strong' })).closest('fieldset') as HTMLElement;
    expect(within(here).getByText('Conectado')).toBeTruthy();
    expect((within(here).getByRole('checkbox', { name: /TALLERES NORTE SL/ }) as HTMLInputElement).checked).toBe(true);
    expect((within(here).getByRole('checkbox', { name: /ANA GARCÍA/ }) as HTMLInputElement).checked).toBe(false);
    expect(here.textContent).toContain('Última actualización: 25/11/2026 09:01 · Hecho: 3 encontradas, 1 nuevas');
    const office = screen.getByText('PC-OFICINA', { selector: 'strong' }).closest('fieldset') as HTMLElement;
    expect(within(office).getByText('Sin conexión')).toBeTruthy();

    fireEvent.click(within(office).getByRole('checkbox', { name: 'Seleccionar todos los certificados de PC-OFICINA' }));
    fireEvent.click(within(here).getByRole('checkbox', { name: /TALLERES NORTE SL/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.find((call) => call.key === 'PUT /api/notifications/certificates')?.body).toEqual({
      certificates: [{ machineId: MACHINE_OFFICE, fingerprint: FINGERPRINT_B }],
    }));
  });

  it('says the user has no certificates when no machine has any synced', async () => {
    stubApi(pageRoutes([], { 'GET /api/notifications/certificates': ok({ items: [] }) }));
    renderNotifications('/notifications?section=config');
    expect(await screen.findByRole('heading', { name: 'No tienes certificados' })).toBeTruthy();
  });
});
