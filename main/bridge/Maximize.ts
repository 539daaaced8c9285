import type { Handler } from './context.ts';
import { requireWindow } from './context.ts';

export const Maximize: Handler<'Maximize'> = async (_args, ctx) => {
  return { maximized: requireWindow(ctx).toggleMaximize() };
};
