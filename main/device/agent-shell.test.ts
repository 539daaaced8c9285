import { EventEmitter } from 'node:events';
import type { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { agentShell } from './agent-shell.ts';

function fakeSpawn(outcome: 'spawn' | NodeJS.ErrnoException) {
  const calls: { command: string; args: readonly string[]; options: unknown; unref: boolean }[] = [];
  const run = ((command: string, args: readonly string[], options: unknown) => {
    const child = Object.assign(new EventEmitter(), { unref: () => (call.unref = true) });
    const call = { command, args, options, unref: false };
    calls.push(call);
    setImmediate(() => (outcome === 'spawn' ? child.emit('spawn') : child.emit('error', outcome)));
    return child;
  }) as unknown as typeof spawn;
  return { run, calls };
}

describe('the agent shell', () => {
  it.each([
    ['linux', { DISPLAY: ':0' }, 'xdg-open'],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, 'xdg-open'],
    ['darwin', {}, 'open'],
    ['win32', {}, 'explorer.exe'],
  ] as const)('on %s with %o opens folders with %s, detached', async (platform, env, opener) => {
    const spawn = fakeSpawn('spawn');
    await agentShell({ platform, env, spawn: spawn.run }).openFolder('/datos/resultados/x');
    expect(spawn.calls).toEqual([{ command: opener, args: ['/datos/resultados/x'], options: { detached: true, stdio: 'ignore', env }, unref: true }]);
  });

  it('says so in Spanish, and starts nothing, on a Linux without a desktop session', async () => {
    const spawn = fakeSpawn('spawn');
    await expect(agentShell({ platform: 'linux', env: {}, spawn: spawn.run }).openFolder('/datos/x')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Este equipo no tiene una sesión de escritorio abierta para el agente: abre la carpeta /datos/x desde su explorador de archivos.',
    });
    expect(spawn.calls).toEqual([]);
  });

  it('says when the opener is missing', async () => {
    const missing = Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' });
    await expect(agentShell({ platform: 'linux', env: { DISPLAY: ':0' }, spawn: fakeSpawn(missing).run }).openFolder('/datos/x')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'No se encuentra xdg-open en este equipo para abrir la carpeta /datos/x.',
    });
  });

  it('has no file dialog', () => {
    expect(agentShell({ platform: 'linux', env: {} }).chooseFiles).toBeNull();
  });
});
