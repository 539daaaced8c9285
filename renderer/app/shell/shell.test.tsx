import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { BridgeClient } from '../../bridge/client.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import { toastShown } from '../toasts.ts';
import { menuToggled } from '../ui.ts';
import { useAppSelector, usePrompt } from '../hooks.ts';
import type { CertificateChoice } from '../contexts.ts';
import { CreditBanner } from './CreditBanner.tsx';
import { CreditChip } from './CreditChip.tsx';
import { Drawer } from './Drawer.tsx';
import { Navigation } from './Navigation.tsx';
import { SideMenu } from './SideMenu.tsx';
import { Toasts } from './Toasts.tsx';
import { TopBar } from './TopBar.tsx';

const launcher = { active: true, trialing: false, name: 'Plan Pro', balance: 1250 };
const usage = { ...launcher, cancelled: false, usageLimit: 2000, usedSlans: 1900, slansPercentage: 95, excededSlans: 0, extraPrice: 0, nextPaymentDate: null, paymentFailed: false };

function fakeBridge() {
  const listeners: ((payload: unknown) => void)[] = [];
  const invoke = vi.fn(async (command: string) => {
    if (command === 'GetMachineHashCode') return { ok: true, data: { machineHashCode: '0123456789abcdef'.repeat(4), machineName: 'PC' } };
    return { ok: true, data: { minimized: true } };
  });
  const bridge = {
    kind: 'agent', available: true, invoke,
    on: (_event: string, callback: (payload: unknown) => void) => {
      listeners.push(callback);
      return () => undefined;
    },
  } as unknown as BridgeClient;
  const emitStatus = (hostVersion: string) =>
    listeners.forEach((listener) => listener({ hostVersion, host: 'agent', machineName: 'PC', uptimeSeconds: 1, runningRobots: 0, at: '2025-01-01T00:00:00Z' }));
  return { bridge, invoke, emitStatus };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('CreditChip', () => {
  it('shows the balance with the default unit names and links to Payments', () => {
    render(<MemoryRouter><CreditChip balance={1250} /></MemoryRouter>);
    const link = screen.getByRole('link', { name: 'Saldo: 1.250 slans. Ir a pagos' });
    expect(link.getAttribute('href')).toBe('/payments');
  });

  it('uses the group singular and plural names', () => {
    render(<MemoryRouter><CreditChip balance={1} currencies="crédito|créditos" /><CreditChip balance={12345} currencies="crédito|créditos" /></MemoryRouter>);
    expect(screen.getByText('1 crédito')).toBeTruthy();
    expect(screen.getByText('12.345 créditos')).toBeTruthy();
  });
});

describe('TopBar', () => {
  it('greets the user, names an active paid plan and shows the credits', async () => {
    vi.stubGlobal('fetch', mockApi({ 'GET /api/subscriptions/launcher': () => jsonResponse(200, launcher) }).fetchMock);
    renderWithApp(<TopBar menuOpen={false} />, { preloadedState: signedInState() });
    expect(screen.getByText('Hola, Ana')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Menú/ })).toBeTruthy();
    expect(await screen.findByText('Plan Pro')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Saldo: 1.250 slans/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Minimizar' })).toBeNull();
  });

  it('hides the plan name while trialing', async () => {
    vi.stubGlobal('fetch', mockApi({ 'GET /api/subscriptions/launcher': () => jsonResponse(200, { ...launcher, trialing: true }) }).fetchMock);
    renderWithApp(<TopBar menuOpen={false} />, { preloadedState: signedInState() });
    expect(await screen.findByRole('link', { name: /Saldo/ })).toBeTruthy();
    expect(screen.queryByText('Plan Pro')).toBeNull();
  });

  it('calls the bridge from the window buttons when embedded', async () => {
    vi.stubGlobal('fetch', mockApi({}).fetchMock);
    const { bridge, invoke } = fakeBridge();
    renderWithApp(<TopBar menuOpen={false} />, { preloadedState: signedInState(), bridge, embedded: true });
    fireEvent.click(screen.getByRole('button', { name: 'Minimizar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(invoke.mock.calls.map((call) => call[0])).toEqual(['Minimize', 'CloseWindow']));
    expect(screen.getByRole('button', { name: 'Maximizar' })).toBeTruthy();
  });
});

describe('SideMenu', () => {
  it('shows the email, the account links and Web as host on the web', () => {
    renderWithApp(<SideMenu />, { preloadedState: signedInState() });
    expect(screen.getByText('ana@asesoria.es')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Mi cuenta' }).getAttribute('href')).toBe('/userprofile');
    expect(screen.getByRole('link', { name: 'Pagos' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeTruthy();
    expect(screen.getByText('Web')).toBeTruthy();
    expect(screen.queryByTestId('machine-hash')).toBeNull();
  });

  it('leaves Pagos out when the group hides it', () => {
    renderWithApp(<SideMenu />, { preloadedState: signedInState(testUser({}, { hidden_routes: ['/payments'] })) });
    expect(screen.queryByRole('link', { name: 'Pagos' })).toBeNull();
  });

  it('shows the machine code and the desktop version when embedded', async () => {
    const { bridge, emitStatus } = fakeBridge();
    renderWithApp(<SideMenu />, { preloadedState: signedInState(), bridge, embedded: true });
    expect((await screen.findByTestId('machine-hash')).textContent).toBe('Equipo: 0123456789ab');
    act(() => emitStatus('2.4.1'));
    expect(screen.getByText('Escritorio 2.4.1')).toBeTruthy();
  });

  it('renders release notes markdown as text, never as HTML', async () => {
    vi.stubGlobal('fetch', mockApi({
      'GET /api/notes/active': () => jsonResponse(200, { items: [{ id: 'n1', content: '## Marzo\n- Nuevo **FIE**\n<script>alert(1)</script>', createAt: '2025-03-01' }] }),
    }).fetchMock);
    const { container } = renderWithApp(<SideMenu />, { preloadedState: signedInState() });
    fireEvent.click(screen.getByRole('button', { name: 'Novedades' }));
    expect(await screen.findByRole('heading', { name: 'Marzo' })).toBeTruthy();
    expect(container.querySelector('.app-notes li')?.textContent).toBe('Nuevo FIE');
    expect(container.ownerDocument.querySelector('script')).toBeNull();
  });
});

describe('Drawer', () => {
  const openDrawer = () => {
    const view = renderWithApp(<DrawerFromStore />, { preloadedState: signedInState() });
    act(() => view.store.dispatch(menuToggled()));
    return view;
  };
  function DrawerFromStore() {
    return <Drawer open={useAppSelector((state) => state.ui.menuOpen)} />;
  }

  it('is a modal dialog with the navigation and the user menu, and closes on Escape', async () => {
    vi.stubGlobal('fetch', mockApi({}).fetchMock);
    const { store } = openDrawer();
    const dialog = await screen.findByRole('dialog', { name: 'Menú de usuario' });
    expect(within(dialog).getByRole('navigation', { name: 'Navegación principal' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Mi cuenta' })).toBeTruthy();
    expect(within(dialog).getByTitle('ana@asesoria.es').textContent).toBe('ana@asesoria.es');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(store.getState().ui.menuOpen).toBe(false));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes from its close button and when a destination is chosen', async () => {
    vi.stubGlobal('fetch', mockApi({}).fetchMock);
    const { store } = openDrawer();
    fireEvent.click(await screen.findByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(store.getState().ui.menuOpen).toBe(false));
    act(() => store.dispatch(menuToggled()));
    fireEvent.click(within(await screen.findByRole('navigation')).getByRole('link', { name: 'Ayuda' }));
    await waitFor(() => expect(store.getState().ui.menuOpen).toBe(false));
  });
});

describe('Navigation', () => {
  it('reserves the bold width of each label so the active item does not shift the list', () => {
    renderWithApp(<Navigation />, { preloadedState: signedInState(), path: '/help' });
    const help = screen.getByRole('link', { name: 'Ayuda' });
    expect(help.getAttribute('data-label')).toBe('Ayuda');
    expect(help.className).toContain('active');
    expect(screen.getByRole('link', { name: 'Inicio' }).className).not.toContain('active');
  });
});

describe('CreditBanner', () => {
  it('warns from 90 % and turns into an alert at 100 %, with Ver planes', async () => {
    vi.stubGlobal('fetch', mockApi({ 'GET /api/subscriptions/usage': () => jsonResponse(200, usage) }).fetchMock);
    renderWithApp(<CreditBanner />, { preloadedState: signedInState() });
    expect((await screen.findByRole('status')).textContent).toContain('Has consumido el 95 %');
    expect(screen.getByRole('button', { name: 'Ver planes' })).toBeTruthy();
  });

  it('says the credits are exhausted at 100 %', async () => {
    vi.stubGlobal('fetch', mockApi({ 'GET /api/subscriptions/usage': () => jsonResponse(200, { ...usage, slansPercentage: 100 }) }).fetchMock);
    renderWithApp(<CreditBanner />, { preloadedState: signedInState() });
    expect((await screen.findByRole('alert')).textContent).toContain('Has agotado los créditos');
  });
});

describe('Toasts', () => {
  it('shows errors as alerts for 3000 ms and others as status for their own lifetime', () => {
    vi.useFakeTimers();
    const { store } = renderWithApp(<Toasts />);
    act(() => {
      store.dispatch(toastShown('error', 'No se ha podido eliminar este dispositivo'));
      store.dispatch(toastShown('success', 'Copiado', 1500));
    });
    expect(screen.getByRole('alert').textContent).toContain('No se ha podido eliminar este dispositivo');
    expect(screen.getByRole('status').textContent).toContain('Copiado');
    act(() => vi.advanceTimersByTime(1500));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(1499));
    expect(screen.getByRole('alert')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a message repeated while on screen once, for a fresh lifetime', () => {
    vi.useFakeTimers();
    const { store } = renderWithApp(<Toasts />);
    act(() => {
      store.dispatch(toastShown('info', 'Haz doble click fuera para salir', 2000));
    });
    act(() => vi.advanceTimersByTime(1500));
    act(() => {
      store.dispatch(toastShown('info', 'Haz doble click fuera para salir', 2000));
    });
    expect(screen.getAllByText('Haz doble click fuera para salir')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.getByText('Haz doble click fuera para salir')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Haz doble click fuera para salir')).toBeNull();
  });
});

describe('the prompt modal', () => {
  function PromptButtons({ certificates, onAnswer }: { certificates: CertificateChoice[]; onAnswer: (answer: unknown) => void }) {
    const prompt = usePrompt();
    return (
      <>
        <button type="button" onClick={() => void prompt.text({ title: 'Nombre del dispositivo', label: 'Nombre' }).then(onAnswer)}>texto</button>
        <button type="button" onClick={() => void prompt.certificate({ title: 'Elige certificado', certificates }).then(onAnswer)}>certificado</button>
      </>
    );
  }

  it('answers the text variant with what was typed', async () => {
    const onAnswer = vi.fn();
    renderWithApp(<PromptButtons certificates={[]} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByRole('button', { name: 'texto' }));
    // The dialog's code is loaded when a modal first opens, so it appears a moment later.
    fireEvent.change(await screen.findByLabelText('Nombre'), { target: { value: 'Oficina' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith('Oficina'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lets the user pick a certificate, and says when there are none', async () => {
    const onAnswer = vi.fn();
    const certificate = { id: 'c1', name: 'ANA PÉREZ - 12345678Z', detail: 'PC-OFICINA' };
    const { unmount } = renderWithApp(<PromptButtons certificates={[certificate]} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByRole('button', { name: 'certificado' }));
    fireEvent.click(await screen.findByRole('radio', { name: /ANA PÉREZ/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(certificate));
    unmount();

    renderWithApp(<PromptButtons certificates={[]} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByRole('button', { name: 'certificado' }));
    expect(await screen.findByText('No tienes certificados')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenLastCalledWith(null));
  });
});
