import type { Handler } from './context.ts';
import { BridgeFailure } from './context.ts';

export const NO_DIALOG_MESSAGE = 'No disponible en el agente sin ventana: elige los archivos desde la aplicación de escritorio.';

/** The system's file or folder picker; empty when the user cancels. The headless agent has none. */
export const OpenNativeSelectionDialog: Handler<'OpenNativeSelectionDialog'> = async ({ multiple, directory, title }, ctx) => {
  if (!ctx.shell.chooseFiles) throw new BridgeFailure('UNAVAILABLE', NO_DIALOG_MESSAGE);
  const paths = await ctx.shell.chooseFiles({ multiple: multiple ?? false, directory: directory ?? false, ...(title ? { title } : {}) });
  return { paths };
};
