/** /notifications: opening after confirming, the desktop-only answers, and 'Actualizar notificaciones' with its progress. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CERTIFICATE_REQUIRED_MESSAGE, OPEN_CONFIRMATION_TEXT, OPEN_CONFIRMATION_TITLE, UPDATE_NOTIFICATIONS_FLOW_ID } from '#shared/api/notifications.ts';
import type { NotificationDetail, WatchedCertificate } from '#shared/api/notifications.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import {
  FINGERPRINT_A, FINGERPRINT_B, MACHINE_HERE, MACHINE_OFFICE, fakeBridge, linkedHereAnswers, machine, notification, ok, pageRoutes, renderNotifications,
  setUpNotificationsTests, stubApi, watched,
} from './test/renderNotifications.tsx';

setUpNotificationsTests();

const pending = notification();
const openedDetail: NotificationDetail = {
  ...pending, estado: 'aceptada', openedAt: '2026-11-26T10:00:00.000Z', openedBy: { name: 'Ana', email: 'ana@asesoria.es' }, documentCount: 2,
  csvResguardo: 'CSV-123', receptor: { nombre: 'ANA GARCÍA', nif: '12345678Z' },
  documents: [
    { _id: '44444444-4444-4444-8444-444444444441', kind: 'documento', name: 'notificacion.pdf', mimeType: 'application/pdf', size: 1000, createdAt: '2026-11-26T10:00:00.000Z' },
    { _id: '44444444-4444-4444-8444-444444444442', kind: 'acuse', name: 'acuse.pdf', mimeType: 'application/pdf', size: 500, createdAt: '2026-11-26T10:00:00.000Z' },
  ],
};
const openButton = () => screen.getByRole('button', { name: `Abrir la notificación «${pending.concepto}» de ${pending.titular}` });

describe('NotificationsPage opening', () => {
  it('asks before opening a pending one and calls the desktop only after the confirmation, then shows it with its PDF', async () => {
    stubApi(pageRoutes([pending], { [`GET /api/notifications/${pending._id}`]: ok(openedDetail) }));
    const desktop = fakeBridge({
      ...linkedHereAnswers,
      GetNotificationsFromDehu: () => ({ ok: true, data: { notificationId: pending._id, documents: [] } }),
    });
    renderNotifications('/notifications', { bridge: desktop.bridge });
    await screen.findByText(pending.concepto);
    fireEvent.click(openButton());
    const dialog = await screen.findByRole('dialog', { name: OPEN_CONFIRMATION_TITLE });
    expect(dialog.textContent).toContain(OPEN_CONFIRMATION_TEXT);
    expect(desktop.commands()).not.toContain('GetNotificationsFromDehu');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: OPEN_CONFIRMATION_TITLE })).toBeNull());
    expect(desktop.commands()).not.toContain('GetNotificationsFromDehu');

    fireEvent.click(openButton());
    fireEvent.click(within(await screen.findByRole('dialog', { name: OPEN_CONFIRMATION_TITLE })).getByRole('button', { name: 'Abrir la notificación' }));
    await waitFor(() => expect(desktop.calls.filter((call) => call.command === 'GetNotificationsFromDehu').map((call) => call.args)).toEqual([{ notificationId: pending._id }]));
    const detail = await screen.findByRole('dialog', { name: pending.concepto });
    expect(await within(detail).findByText('CSV-123')).toBeTruthy();
    expect(within(detail).getByTitle('Documento de la notificación').getAttribute('data')).toBe(`/api/notifications/${pending._id}/documents/${openedDetail.documents[0]?._id}`);
    expect(within(detail).getByRole('link', { name: 'Acuse de recibo: acuse.pdf' }).getAttribute('href')).toBe(`/api/notifications/${pending._id}/documents/${openedDetail.documents[1]?._id}`);
  });

  it('tells a web user to open it from the desktop app on the machine with its certificate, calling nothing', async () => {
    stubApi(pageRoutes([pending]));
    renderNotifications();
    await screen.findByText(pending.concepto);
    fireEvent.click(openButton());
    const dialog = await screen.findByRole('dialog', { name: 'Ábrela desde la aplicación de escritorio' });
    expect(dialog.textContent).toContain('aplicación de escritorio en PC-ANA');
    expect(screen.queryByRole('dialog', { name: OPEN_CONFIRMATION_TITLE })).toBeNull();
  });

  it('on a PC other than the certificate\'s, says which machine can open it', async () => {
    stubApi(pageRoutes([notification({ certificate: { fingerprint: FINGERPRINT_B, commonName: 'OTRA SL', machine: { _id: MACHINE_OFFICE, name: 'PC-OFICINA' } } })]));
    const desktop = fakeBridge({ ...linkedHereAnswers });
    renderNotifications('/notifications', { bridge: desktop.bridge });
    await screen.findByText(pending.concepto);
    fireEvent.click(openButton());
    expect((await screen.findByRole('dialog', { name: 'Ábrela desde la aplicación de escritorio' })).textContent).toContain('PC-OFICINA');
    expect(desktop.commands()).not.toContain('GetNotificationsFromDehu');
  });

  it('shows one already opened straight away, with no confirmation', async () => {
    stubApi(pageRoutes([{ ...pending, estado: 'aceptada', openedAt: openedDetail.openedAt }], { [`GET /api/notifications/${pending._id}`]: ok(openedDetail) }));
    renderNotifications();
    fireEvent.click((await screen.findByText(pending.concepto)).closest('tr') as HTMLElement);
    expect(await screen.findByRole('dialog', { name: pending.concepto })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: OPEN_CONFIRMATION_TITLE })).toBeNull();
  });

  it('shows the PDF with the browser viewer in an <object>, and never in a frame that could run a page (issue 39)', async () => {
    stubApi(pageRoutes([{ ...pending, estado: 'aceptada', openedAt: openedDetail.openedAt }], { [`GET /api/notifications/${pending._id}`]: ok(openedDetail) }));
    renderNotifications();
    fireEvent.click((await screen.findByText(pending.concepto)).closest('tr') as HTMLElement);
    const detail = await screen.findByRole('dialog', { name: pending.concepto });
    const url = `/api/notifications/${pending._id}/documents/${openedDetail.documents[0]?._id}`;
    const viewer = await within(detail).findByTitle('Documento de la notificación');
    expect(viewer.tagName).toBe('OBJECT');
    expect(viewer.getAttribute('type')).toBe('application/pdf');
    expect(viewer.getAttribute('data')).toBe(url);
    // Where no viewer may run, its fallback offers the download.
    expect(within(viewer).getByRole('link', { name: 'notificacion.pdf' }).getAttribute('href')).toBe(url);
    // A frame would be a browsing context of our origin: none, or only sandboxed without scripts.
    for (const frame of detail.querySelectorAll('iframe')) {
      expect(frame.hasAttribute('sandbox')).toBe(true);
      expect(frame.getAttribute('sandbox')).not.toMatch(/allow-scripts/);
    }
    expect(detail.querySelectorAll('iframe:not([sandbox]), embed')).toHaveLength(0);
  });
});

describe('NotificationsPage update', () => {
  it('asks for a certificate when none is watched', async () => {
    stubApi(pageRoutes([], { 'GET /api/notifications/certificates': ok({ items: [] }) }));
    renderNotifications();
    await screen.findByText('0 notificaciones');
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar notificaciones' }));
    expect(await screen.findByText(CERTIFICATE_REQUIRED_MESSAGE)).toBeTruthy();
  });

  it('shows a web user without any machine that updating needs the desktop app', async () => {
    stubApi(pageRoutes([], { 'GET /api/machines': ok({ items: [] }), 'GET /api/notifications/certificates': ok({ items: [] }) }));
    renderNotifications();
    await screen.findByText('0 notificaciones');
    await waitFor(() => fireEvent.click(screen.getByRole('button', { name: 'Actualizar notificaciones' })));
    expect((await screen.findByRole('dialog', { name: 'Necesitas la aplicación de escritorio' })).textContent).toContain('Instala la aplicación de escritorio');
  });

  it('updates this PC through the desktop and launches the other machine remotely, showing each certificate until all are done', async () => {
    const here = watched();
    const office = watched({ fingerprint: FINGERPRINT_B, commonName: 'OTRA SL', machine: { _id: MACHINE_OFFICE, name: 'PC-OFICINA', online: false, mine: false } });
    let certificates: WatchedCertificate[] = [here, office];
    let finishLocal: (value: unknown) => void = () => undefined;
    const calls = stubApi(pageRoutes([], {
      'GET /api/notifications/certificates': () => jsonResponse(200, { items: certificates }),
      'GET /api/machines': ok({ items: [machine({ _id: MACHINE_HERE, savedAs: 'PC-ANA' }), machine({ _id: MACHINE_OFFICE, savedAs: 'PC-OFICINA', mine: false, shared: true, online: false })] }),
      [`POST /api/browserflow/execution/${UPDATE_NOTIFICATIONS_FLOW_ID}`]: () =>
        jsonResponse(202, { executionToken: 't', runId: 'r', state: 'queued', successfulIterations: 0, totalIterations: 0, consoleLog: [], machine: { _id: MACHINE_OFFICE, name: 'PC-OFICINA', online: false } }),
    }));
    const desktop = fakeBridge({
      ...linkedHereAnswers,
      UpdateNotificationsList: () => new Promise((resolve) => { finishLocal = resolve; }),
    });
    renderNotifications('/notifications', { bridge: desktop.bridge });
    await screen.findByText('0 notificaciones');
    const started = new Date().toISOString();
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar notificaciones' }));

    await waitFor(() => expect(desktop.calls.find((call) => call.command === 'UpdateNotificationsList')?.args).toEqual({ certificates: [FINGERPRINT_A] }));
    const launch = calls.find((call) => call.key.startsWith('POST /api/browserflow/execution/'));
    expect(launch?.body).toMatchObject({ inputs: {}, machineId: MACHINE_OFFICE });
    expect(await screen.findByText('PC-OFICINA no está conectado: la actualización queda en cola y empezará cuando se conecte.')).toBeTruthy();
    expect(await screen.findByText('0 de 2 certificados actualizados')).toBeTruthy();

    // This PC reports its progress to the server; the screen reads it every 2 s.
    certificates = [
      { ...here, lastUpdate: { state: 'done', startedAt: started, finishedAt: started, found: 4, added: 1, message: null } },
      { ...office, lastUpdate: { state: 'running', startedAt: started, finishedAt: null, found: 0, added: 0, message: null } },
    ];
    finishLocal({ ok: true, data: { certificates: [{ fingerprint: FINGERPRINT_A, commonName: 'TALLERES NORTE SL', state: 'done', found: 4, added: 1, message: null }] } });
    expect(await screen.findByText('1 de 2 certificados actualizados', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('Hecho: 4 encontradas, 1 nuevas')).toBeTruthy();

    certificates = [certificates[0] as WatchedCertificate, { ...office, lastUpdate: { state: 'error', startedAt: started, finishedAt: started, found: 0, added: 0, message: 'LEMA: certificado caducado' } }];
    const listCallsBefore = calls.filter((call) => call.key === 'GET /api/notifications').length;
    expect(await screen.findByText('2 de 2 certificados actualizados', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('Error: LEMA: certificado caducado')).toBeTruthy();
    // The round is over: the list is read again.
    await waitFor(() => expect(calls.filter((call) => call.key === 'GET /api/notifications').length).toBeGreaterThan(listCallsBefore));
  }, 15_000);

  it('a remote launch the server refuses says so and frees the button at once, instead of waiting for that machine', async () => {
    const office = watched({ fingerprint: FINGERPRINT_B, commonName: 'OTRA SL', machine: { _id: MACHINE_OFFICE, name: 'PC-OFICINA', online: true, mine: false } });
    stubApi(pageRoutes([], {
      'GET /api/notifications/certificates': ok({ items: [office] }),
      'GET /api/machines': ok({ items: [machine({ _id: MACHINE_OFFICE, savedAs: 'PC-OFICINA', mine: false, shared: true })] }),
      [`POST /api/browserflow/execution/${UPDATE_NOTIFICATIONS_FLOW_ID}`]: () => jsonResponse(409, { statusCode: 409, error: 'Conflict', message: 'El dispositivo ya no está compartido' }),
    }));
    renderNotifications('/notifications');
    await screen.findByText('0 notificaciones');
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar notificaciones' }));
    expect(await screen.findByText(/^No se ha podido lanzar la actualización en PC-OFICINA: /)).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Actualizar notificaciones' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByText('0 de 1 certificados actualizados')).toBeNull();
  });

  it('shows an update the server holds as pending (after a reload too), and never asks that machine again', async () => {
    const queuedAt = '2026-11-25T09:15:00.000Z';
    const pending = { runId: '44444444-4444-4444-8444-444444444444', state: 'queued' as const, queuedAt };
    const office = watched({ fingerprint: FINGERPRINT_B, commonName: 'OTRA SL', machine: { _id: MACHINE_OFFICE, name: 'PC-OFICINA', online: false, mine: false }, pendingUpdate: pending });
    const calls = stubApi(pageRoutes([], {
      'GET /api/notifications/certificates': ok({ items: [office] }),
      'GET /api/machines': ok({ items: [machine({ _id: MACHINE_OFFICE, savedAs: 'PC-OFICINA', mine: false, shared: true, online: false })] }),
    }));
    renderNotifications('/notifications');
    await screen.findByText('0 notificaciones');
    // Nothing was clicked on this screen: what it shows is the server's.
    expect(await screen.findByText('En cola desde 25/11/2026 10:15: empezará cuando PC-OFICINA se conecte')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Actualización en cola' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.filter((call) => call.key.startsWith('POST /api/browserflow/execution/'))).toEqual([]);
  });

  it('with one machine pending and another not, launches only the other one', async () => {
    const pending = { runId: '44444444-4444-4444-8444-444444444444', state: 'queued' as const, queuedAt: '2026-11-25T09:15:00.000Z' };
    const office = watched({ fingerprint: FINGERPRINT_B, commonName: 'OTRA SL', machine: { _id: MACHINE_OFFICE, name: 'PC-OFICINA', online: false, mine: false }, pendingUpdate: pending });
    const other = watched({ machine: { _id: MACHINE_HERE, name: 'PC-ANA', online: true, mine: true } });
    const calls = stubApi(pageRoutes([], {
      'GET /api/notifications/certificates': ok({ items: [other, office] }),
      'GET /api/machines': ok({ items: [machine({ _id: MACHINE_HERE, savedAs: 'PC-ANA' }), machine({ _id: MACHINE_OFFICE, savedAs: 'PC-OFICINA', mine: false, shared: true, online: false })] }),
      [`POST /api/browserflow/execution/${UPDATE_NOTIFICATIONS_FLOW_ID}`]: () =>
        jsonResponse(202, { executionToken: 't', runId: 'r', state: 'queued', successfulIterations: 0, totalIterations: 0, consoleLog: [], machine: { _id: MACHINE_HERE, name: 'PC-ANA', online: true } }),
    }));
    renderNotifications('/notifications');
    await screen.findByText('0 notificaciones');
    await screen.findByText(/^En cola desde /);
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar notificaciones' }));
    expect(await screen.findByText('Actualización enviada a PC-ANA.')).toBeTruthy();
    const launches = calls.filter((call) => call.key.startsWith('POST /api/browserflow/execution/'));
    expect(launches.map((call) => (call.body as { machineId: string }).machineId)).toEqual([MACHINE_HERE]);
  });
});
