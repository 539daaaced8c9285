import { spawn as spawnProcess } from 'node:child_process';
import type { DesktopShell } from '../bridge/context.ts';
import { BridgeFailure } from '../bridge/context.ts';

export interface AgentShellOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  spawn?: typeof spawnProcess;
}

/**
 * The headless agent's shell: folders open with the OS's own opener (explorer, open, xdg-open), started
 * detached so it outlives nothing of ours. There is no dialog without a window.
 */
export function agentShell(options: AgentShellOptions): DesktopShell {
  const spawn = options.spawn ?? spawnProcess;
  return {
    chooseFiles: null,
    openFolder(folder) {
      const hasDesktop = options.platform === 'win32' || options.platform === 'darwin' || Boolean(options.env.DISPLAY || options.env.WAYLAND_DISPLAY);
      if (!hasDesktop) {
        return Promise.reject(new BridgeFailure('UNAVAILABLE', `Este equipo no tiene una sesión de escritorio abierta para el agente: abre la carpeta ${folder} desde su explorador de archivos.`));
      }
      const opener = options.platform === 'win32' ? 'explorer.exe' : options.platform === 'darwin' ? 'open' : 'xdg-open';
      return new Promise<void>((resolve, reject) => {
        const child = spawn(opener, [folder], { detached: true, stdio: 'ignore', env: options.env });
        child.once('error', (error: NodeJS.ErrnoException) => {
          reject(
            new BridgeFailure(
              'UNAVAILABLE',
              error.code === 'ENOENT' ? `No se encuentra ${opener} en este equipo para abrir la carpeta ${folder}.` : `No se ha podido abrir la carpeta ${folder}.`,
            ),
          );
        });
        child.once('spawn', () => {
          child.unref();
          resolve();
        });
      });
    },
  };
}
