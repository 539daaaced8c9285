import type { Handler } from './context.ts';
import { requireWindow } from './context.ts';

export const CloseWindow: Handler<'CloseWindow'> = async (_args, ctx) => {
  requireWindow(ctx).close();
  return { closing: true };
};
