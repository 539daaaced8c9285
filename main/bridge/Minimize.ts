import type { Handler } from './context.ts';
import { requireWindow } from './context.ts';

export const Minimize: Handler<'Minimize'> = async (_args, ctx) => {
  requireWindow(ctx).minimize();
  return { minimized: true };
};
