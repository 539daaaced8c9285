import * as XLSX from 'xlsx';
import type { Robot, RobotContext, RobotResult } from '#shared/flows/robot.ts';

/** Data rows of the first sheet of each uploaded workbook. */
function countRows(context: RobotContext): number {
  return (context.files.workbook ?? []).reduce((rows, file) => {
    const book = XLSX.read(file.data, { type: 'array' });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    return rows + (sheet ? Math.max(0, XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, blankrows: false }).length - 1) : 0);
  }, 0);
}

function untilAborted(context: RobotContext): Promise<void> {
  return new Promise((resolve) => {
    if (context.signal.aborted) resolve();
    context.signal.addEventListener('abort', () => resolve());
  });
}

/** Writes an output of `chunks` chunks of 64 KiB through context.output (byte n of the file is n % 251); closes it if asked. */
async function streamOutput(context: RobotContext, name: string, chunks: number, close: boolean): Promise<void> {
  if (!context.output) throw new Error('Este entorno no da salidas en flujo');
  const output = context.output(name);
  for (let chunk = 0; chunk < chunks; chunk += 1) {
    const bytes = new Uint8Array(64 * 1024);
    for (let at = 0; at < bytes.length; at += 1) bytes[at] = (chunk * bytes.length + at) % 251;
    await output.write(bytes);
  }
  if (close) await output.close();
}

/** The test robot: inputs.mode says how it ends. */
const robot: Robot = {
  async run(context): Promise<RobotResult> {
    const mode = String(context.inputs.mode);
    context.log('info', `Empiezo en modo ${mode}`);
    switch (mode) {
      case 'wait':
        context.progress(0, 10);
        await untilAborted(context);
        return { result: 'Fail', usageUnits: 5, outputs: [], message: 'Detenido' };
      case 'crash':
        // An uncaught error outside the run's promise, as a broken library would raise it.
        setTimeout(() => {
          throw new Error('fallo fuera de control');
        }, 10);
        return new Promise(() => undefined);
      case 'throw':
        throw new Error('el robot ha fallado');
      case 'fail':
        return { result: 'Fail', usageUnits: 3, outputs: [], message: 'No se pudo entrar en la web' };
      case 'wrong-input':
        return { result: 'WrongInput', usageUnits: 0, outputs: [], message: 'El libro está vacío' };
      case 'oom': {
        const hoard: number[][] = [];
        for (;;) hoard.push(Array.from({ length: 1_000_000 }, (_, i) => i));
      }
      case 'oom-one-array': {
        // One array grown without end: the allocation shape that aborts a whole process from a worker
        // thread despite its resourceLimits (nodejs/node#47224), so a run must live in a process of its own.
        const hoard: number[] = [];
        for (let i = 0; ; i += 1) hoard.push(i + 0.5);
      }
      case 'stream':
        // Two streamed outputs, one left open (not kept), and one given as bytes under a name already taken.
        await streamOutput(context, 'grande.bin', 40, true);
        await streamOutput(context, 'a medias.bin', 3, false);
        await streamOutput(context, 'resultado.txt', 1, true);
        return { result: 'Success', usageUnits: 1, outputs: [{ name: 'resultado.txt', data: new TextEncoder().encode('en bytes') }] };
      case 'stream-throw':
        await streamOutput(context, 'grande.bin', 10, true);
        throw new Error('el robot ha fallado después de escribir');
      case 'stream-wait':
        await streamOutput(context, 'grande.bin', 10, true);
        await streamOutput(context, 'a medias.bin', 3, false);
        context.progress(0, 10);
        await untilAborted(context);
        return { result: 'Fail', usageUnits: 0, outputs: [], message: 'Detenido' };
      case 'stream-crash':
        await streamOutput(context, 'grande.bin', 10, true);
        await streamOutput(context, 'a medias.bin', 3, false);
        setTimeout(() => {
          throw new Error('fallo fuera de control');
        }, 10);
        return new Promise(() => undefined);
      case 'hang':
        for (;;) {
          // Ignores its abort signal on purpose: only terminating the worker stops it.
        }
      default: {
        const rows = countRows(context);
        const copies = Number(context.inputs.copies ?? 1);
        for (let row = 1; row <= rows; row += 1) context.progress(row, rows);
        context.log('warn', `Filas: ${rows}`);
        const text = JSON.stringify({ inputs: context.inputs, files: Object.keys(context.files), startedAt: context.startedAt.toISOString() });
        const outputs = Array.from({ length: copies }, (_, index) => ({ name: copies > 1 ? `resultado ${index + 1}.txt` : 'resultado.txt', data: new TextEncoder().encode(text) }));
        return { result: 'Success', usageUnits: rows > 0 ? rows : 1, outputs, summary: { filas: rows, bien: true } };
      }
    }
  },
};

export default robot;
