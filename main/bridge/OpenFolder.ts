import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Handler } from './context.ts';
import { BridgeFailure } from './context.ts';

export const OUTSIDE_OUTPUT_MESSAGE = 'Solo se pueden abrir las carpetas de resultados de los robots de este equipo.';

/**
 * Opens a run's output folder in the file manager. Only folders inside the robots' output root, judged
 * after resolving '..' and symbolic links, so a page cannot use it to open (or run) anything else.
 */
export const OpenFolder: Handler<'OpenFolder'> = async ({ folder }, ctx) => {
  const root = resolve(ctx.robots.outputRoot);
  if (!isInside(root, resolve(root, folder))) throw new BridgeFailure('FORBIDDEN', OUTSIDE_OUTPUT_MESSAGE);
  let target: string;
  try {
    target = await realpath(resolve(root, folder));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BridgeFailure('NOT_FOUND', `No existe la carpeta ${folder}.`);
    throw error;
  }
  const realRoot = await realpath(root).catch(() => root);
  if (!isInside(realRoot, target) || !(await stat(target)).isDirectory()) throw new BridgeFailure('FORBIDDEN', OUTSIDE_OUTPUT_MESSAGE);
  await ctx.shell.openFolder(target);
  return { opened: true };
};

function isInside(root: string, target: string): boolean {
  const path = relative(root, target);
  return path === '' || (!isAbsolute(path) && path.split(sep)[0] !== '..');
}
