import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { preloadModal } from '../../ui/Modal.tsx';
import AutopilotPanel from './AutopilotPanel.tsx';
import { NOW, app, certificate, eachTestAtNow, fakeAutopilotBridge, snapshot, task } from './test/fixtures.ts';

beforeAll(() => preloadModal());
eachTestAtNow();

function CurrentPath() {
  return <output aria-label="ruta">{useLocation().pathname}</output>;
}

function renderPanel(desktop: ReturnType<typeof fakeAutopilotBridge>, onClose = vi.fn()) {
  renderWithApp(
    <Routes>
      <Route path="*" element={<><AutopilotPanel desktop title="Piloto automático" onClose={onClose} /><CurrentPath /></>} />
    </Routes>,
    { embedded: true, bridge: desktop.bridge, toasts: true, preloadedState: signedInState(), path: '/home' },
  );
  return onClose;
}

const tasksColumn = () => screen.findByRole('region', { name: 'Robots programados' });
const appsColumn = () => screen.findByRole('region', { name: 'Control de aplicaciones' });

describe('Robots programados (desktop)', () => {
  it("groups tasks by Madrid day: 'Robots para hoy' holds overdue ones, later days read dd/mm/yyyy", async () => {
    const desktop = fakeAutopilotBridge(snapshot({
      tasks: [
        task({ id: 'later', title: 'Notificaciones DEHú', scheduledDate: '2025-03-12T07:05:00.000Z' }),
        task({ id: 'today', title: 'Modelo 111', scheduledDate: '2025-03-10T12:30:00.000Z', repeat: { every: 2, interval: 'days' } }),
        task({ id: 'overdue', title: 'Altas pendientes', app: 'altas', scheduledDate: '2025-03-08T08:00:00.000Z', done: true }),
      ],
    }));
    renderPanel(desktop);
    const column = await tasksColumn();
    const today = await within(column).findByRole('region', { name: 'Robots para hoy' });
    const rows = within(today).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getAllByText(/Altas pendientes|Modelo 111/)[0]?.textContent)).toEqual(['Altas pendientes', 'Modelo 111']);
    // Done: a check instead of the time; to do: hh:mm in Madrid (12:30 UTC is 13:30).
    expect(within(rows[0]!).getByRole('img', { name: 'Hecho' })).toBeTruthy();
    expect(within(rows[1]!).getByText('13:30')).toBeTruthy();
    expect(within(rows[1]!).getByText('Se lanza cada 2 días')).toBeTruthy();
    const later = within(column).getByRole('region', { name: 'Robots del 12/03/2025' });
    expect(within(later).getByRole('heading', { name: '12/03/2025' })).toBeTruthy();
    expect(within(later).getByText('08:05')).toBeTruthy();
  });

  it('shows info chips with their tooltips and item lists', async () => {
    const desktop = fakeAutopilotBridge(snapshot({
      tasks: [task({ info: [{ text: 'PC oficina', icon: 'machine', tooltip: 'Equipo que lo lanza' }], items: ['Empresa A', 'Empresa B'] })],
    }));
    renderPanel(desktop);
    const chip = await screen.findByText('PC oficina');
    expect(chip.getAttribute('title')).toBe('Equipo que lo lanza');
    const items = screen.getByRole('list', { name: 'Elementos de Modelo 111' });
    expect(within(items).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Empresa A', 'Empresa B']);
  });

  it("says 'No tienes ningún proceso automatizado' with no tasks, and 'No hay nada que lanzar'", async () => {
    renderPanel(fakeAutopilotBridge(snapshot({ tasks: [] })));
    const column = await tasksColumn();
    expect(await within(column).findByRole('heading', { name: 'No tienes ningún proceso automatizado' })).toBeTruthy();
    expect(within(column).getByRole('img', { name: 'No hay nada que lanzar' })).toBeTruthy();
  });

  it("says the processes will launch by themselves while the loop runs and something is left for today", async () => {
    const desktop = fakeAutopilotBridge(snapshot({ looping: false, tasks: [task()] }));
    renderPanel(desktop);
    // Opening the panel starts the desktop's loop (the fake answers looping: true).
    expect(await screen.findByRole('img', { name: 'Los procesos se lanzarán automáticamente' })).toBeTruthy();
    desktop.emit(snapshot({ looping: true, tasks: [task({ scheduledDate: '2025-03-11T08:00:00.000Z' })], at: '2025-03-10T10:00:01.000Z' }));
    expect(await screen.findByRole('img', { name: 'No hay nada que lanzar' })).toBeTruthy();
  });

  it('asks before deleting a task, then calls DeleteAutopilotTask; cancelling deletes nothing', async () => {
    const desktop = fakeAutopilotBridge(snapshot({ tasks: [task({ id: 'flow:s1', title: 'Modelo 111', repeat: { every: 1, interval: 'months' } })] }));
    renderPanel(desktop);
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar Modelo 111' }));
    let confirm = await screen.findByRole('dialog', { name: 'Eliminar tarea' });
    expect(within(confirm).getByText('«Modelo 111» no se lanzará el 10/03/2025 a las 13:30 ni en sus repeticiones. Esta acción no se puede deshacer.')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Eliminar tarea' })).toBeNull());
    expect(desktop.argsOf('DeleteAutopilotTask')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar Modelo 111' }));
    confirm = await screen.findByRole('dialog', { name: 'Eliminar tarea' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(desktop.argsOf('DeleteAutopilotTask')).toEqual([{ taskId: 'flow:s1' }]));
    expect(await screen.findByRole('heading', { name: 'No tienes ningún proceso automatizado' })).toBeTruthy();
  });

  it("offers no delete for a running task: 'En ejecución' instead", async () => {
    renderPanel(fakeAutopilotBridge(snapshot({ tasks: [task({ title: 'Modelo 111', executionInProgress: true }), task({ id: 'other', title: 'Modelo 303' })] })));
    expect(await screen.findByText('En ejecución')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Eliminar Modelo 111' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Eliminar Modelo 303' })).toBeTruthy();
  });

  it('shows why a delete was refused, in Spanish', async () => {
    const desktop = fakeAutopilotBridge(snapshot({ tasks: [task()] }), {
      DeleteAutopilotTask: () => ({ ok: false, error: { code: 'FORBIDDEN', message: 'Esta tarea se está ejecutando y no se puede eliminar' } }),
    });
    renderPanel(desktop);
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar Modelo 111' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Eliminar tarea' })).getByRole('button', { name: 'Eliminar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Esta tarea se está ejecutando y no se puede eliminar');
    expect(screen.getByText('Modelo 111')).toBeTruthy();
  });

  it("tells an unlinked PC to connect from 'Mis recursos', and the link leaves the panel", async () => {
    const onClose = renderPanel(fakeAutopilotBridge(snapshot({ linked: false })));
    expect(await screen.findByText('Este dispositivo no está conectado a tu cuenta')).toBeTruthy();
    expect(screen.getByText(/pulsa «Conectar este dispositivo»/)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Ir a Mis recursos' }));
    expect(onClose).toHaveBeenCalled();
    // The page behind the modal is hidden from the accessibility tree while it is open.
    expect(screen.getByRole('status', { name: 'ruta', hidden: true }).textContent).toBe('/workspace');
  });

  it('shows the bridge error when the autopilot cannot be read, and tries again', async () => {
    let fail = true;
    const desktop = fakeAutopilotBridge(snapshot({ tasks: [task()] }), {
      GetAutopilot: () => (fail ? { ok: false, error: { code: 'FAILED', message: 'No se ha podido leer el piloto automático' } } : { ok: true, data: snapshot({ tasks: [task()] }) }),
      SetAutopilotPanelOpen: () => ({ ok: false, error: { code: 'FAILED', message: 'No' } }),
    });
    renderPanel(desktop);
    expect((await screen.findByRole('alert')).textContent).toContain('No se ha podido leer el piloto automático');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Modelo 111')).toBeTruthy();
  });
});

describe('Control de aplicaciones (desktop)', () => {
  it('switches every app or one of them through the bridge', async () => {
    const desktop = fakeAutopilotBridge(snapshot());
    renderPanel(desktop);
    const column = await appsColumn();
    const all = within(column).getByRole('switch', { name: 'Activar / Desactivar todas' });
    expect(all.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(all);
    await waitFor(() => expect(desktop.argsOf('SetAutopilotSwitch')).toEqual([{ app: 'all', enabled: false }]));
    await waitFor(() => expect(within(column).getByRole('switch', { name: 'Activar / Desactivar todas' }).getAttribute('aria-checked')).toBe('false'));

    fireEvent.click(within(column).getByRole('switch', { name: 'Notificaciones' }));
    await waitFor(() => expect(desktop.argsOf('SetAutopilotSwitch')).toEqual([{ app: 'all', enabled: false }, { app: 'notificaciones', enabled: true }]));
    await waitFor(() => expect(within(column).getByRole('switch', { name: 'Notificaciones' }).getAttribute('aria-checked')).toBe('true'));
  });

  it('shows an app that cannot load yet with its reason and a disabled switch', async () => {
    renderPanel(fakeAutopilotBridge(snapshot()));
    const altas = within(await appsColumn()).getByRole('switch', { name: 'Altas desasistidas' });
    expect((altas as HTMLButtonElement).disabled).toBe(true);
    expect(altas.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(altas.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Disponible cuando llegue el módulo de altas');
    // Its certificates can be chosen ahead: the app is active with them once it can load.
    const altasApp = within(await appsColumn()).getByRole('region', { name: 'Altas desasistidas' });
    expect((within(altasApp).getByRole('button', { name: 'Añadir certificado' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows the refresh countdown of an active app, ticking down", async () => {
    renderPanel(fakeAutopilotBridge(snapshot()));
    const robots = within(await appsColumn()).getByRole('region', { name: 'Robots para asesorías' });
    expect(within(robots).getByRole('img', { name: 'Se actualiza en 12 s' })).toBeTruthy();
    vi.setSystemTime(NOW.getTime() + 5000);
    expect(await within(robots).findByRole('img', { name: 'Se actualiza en 7 s' }, { timeout: 2500 })).toBeTruthy();
    // Inactive apps have no ring.
    expect(within(within(await appsColumn()).getByRole('region', { name: 'Notificaciones' })).queryByRole('img', { name: /Se actualiza/ })).toBeNull();
  });

  it("warns 'Añade un certificado para activar esta función' when an app is on without a certificate", async () => {
    const desktop = fakeAutopilotBridge(snapshot({
      apps: [app({ id: 'notificaciones', title: 'Notificaciones', needsCertificates: true, enabled: true })],
    }));
    renderPanel(desktop);
    const notifications = within(await appsColumn()).getByRole('region', { name: 'Notificaciones' });
    expect(within(notifications).getByText('Añade un certificado para activar esta función')).toBeTruthy();
  });

  /** This PC's certificate list: two of them. */
  const twoCertificatesHere = {
    GetCertificatesList: () => ({
      ok: true as const,
      data: { certificates: [certificate('1', 'PRUEBAS GARCIA ANA'), certificate('2', 'SOCIEDAD DEMO SL')], problems: [], folder: null, readAt: NOW.toISOString() },
    }),
  };

  it("'Añadir certificado' opens this PC's certificates: 'Volver' changes nothing, 'Añadir' sets them", async () => {
    const desktop = fakeAutopilotBridge(
      snapshot({ apps: [app({ id: 'notificaciones', title: 'Notificaciones', needsCertificates: true, multipleCertificates: true, enabled: true })] }),
      twoCertificatesHere,
    );
    renderPanel(desktop);
    fireEvent.click(within(await appsColumn()).getByRole('button', { name: 'Añadir certificado' }));
    const picker = await screen.findByRole('region', { name: 'Añadir certificado a Notificaciones' });
    expect(await within(picker).findByText('PRUEBAS GARCIA ANA')).toBeTruthy();
    fireEvent.click(within(picker).getByRole('button', { name: 'Volver' }));
    expect(await appsColumn()).toBeTruthy();
    expect(desktop.argsOf('SetAutopilotCertificates')).toEqual([]);

    fireEvent.click(within(await appsColumn()).getByRole('button', { name: 'Añadir certificado' }));
    const again = await screen.findByRole('region', { name: 'Añadir certificado a Notificaciones' });
    // Nothing chosen: it says so and sends nothing.
    fireEvent.click(await within(again).findByRole('button', { name: 'Añadir' }));
    expect((await within(again).findByRole('alert')).textContent).toBe('Elige uno o más certificados');
    fireEvent.click(within(again).getByRole('checkbox', { name: /SOCIEDAD DEMO SL/ }));
    fireEvent.click(within(again).getByRole('button', { name: 'Añadir' }));
    await waitFor(() => expect(desktop.argsOf('SetAutopilotCertificates')).toEqual([
      { app: 'notificaciones', certificates: [{ fingerprint: '2'.repeat(64), commonName: 'SOCIEDAD DEMO SL' }] },
    ]));

    // Back on the panel: listed by common name, and the warning has gone.
    const notifications = within(await appsColumn()).getByRole('region', { name: 'Notificaciones' });
    const chosen = within(notifications).getByRole('list', { name: 'Certificados de Notificaciones' });
    expect(within(chosen).getByText('SOCIEDAD DEMO SL')).toBeTruthy();
    expect(within(notifications).queryByText('Añade un certificado para activar esta función')).toBeNull();

    fireEvent.click(within(chosen).getByRole('button', { name: 'Quitar SOCIEDAD DEMO SL' }));
    await waitFor(() => expect(desktop.argsOf('SetAutopilotCertificates').at(-1)).toEqual({ app: 'notificaciones', certificates: [] }));
    expect(await within(notifications).findByText('Añade un certificado para activar esta función')).toBeTruthy();
  });

  it('offers radios for an app that takes one certificate, and the one chosen replaces it', async () => {
    const desktop = fakeAutopilotBridge(
      snapshot({ apps: [app({ id: 'notificaciones', title: 'Notificaciones', needsCertificates: true, certificates: [{ fingerprint: '1'.repeat(64), commonName: 'PRUEBAS GARCIA ANA' }] })] }),
      twoCertificatesHere,
    );
    renderPanel(desktop);
    fireEvent.click(within(await appsColumn()).getByRole('button', { name: 'Añadir certificado' }));
    const picker = await screen.findByRole('region', { name: 'Añadir certificado a Notificaciones' });
    const current = await within(picker).findByRole('radio', { name: /PRUEBAS GARCIA ANA/ });
    expect((current as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(picker).getByRole('radio', { name: /SOCIEDAD DEMO SL/ }));
    fireEvent.click(within(picker).getByRole('button', { name: 'Añadir' }));
    await waitFor(() => expect(desktop.argsOf('SetAutopilotCertificates')).toEqual([
      { app: 'notificaciones', certificates: [{ fingerprint: '2'.repeat(64), commonName: 'SOCIEDAD DEMO SL' }] },
    ]));
  });

  it("shows the desktop's refusal of a switch in Spanish", async () => {
    const desktop = fakeAutopilotBridge(snapshot(), {
      SetAutopilotSwitch: () => ({ ok: false, error: { code: 'UNAVAILABLE', message: 'Esta aplicación todavía no está disponible' } }),
    });
    renderPanel(desktop);
    fireEvent.click(within(await appsColumn()).getByRole('switch', { name: 'Robots para asesorías' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Esta aplicación todavía no está disponible');
    expect(within(await appsColumn()).getByRole('switch', { name: 'Robots para asesorías' }).getAttribute('aria-checked')).toBe('true');
  });
});
