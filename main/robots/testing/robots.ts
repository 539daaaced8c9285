/**
 * Test-only robots module for the runtime's tests (runtime*.test.ts) and the agent stand-in: one robot
 * per way a run can end. Like the app's resources/flows/index.ts, it exports `desktopFlows`.
 */
import type { DesktopRobot, DesktopRobotContext } from '../../../resources/flows/_lib/desktop.ts';
import type { DesktopFlowEntry } from '../types.ts';

const text = (value: string) => new TextEncoder().encode(value);

/** Resolves when the run is stopped (or its time is up). */
const aborted = (context: DesktopRobotContext) =>
  new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    context.signal.addEventListener('abort', () => resolve());
  });

/** Never resolves, whatever the signal says (a timer keeps the process alive, as a stuck robot would). */
const forever = () => new Promise<never>(() => setInterval(() => undefined, 60_000));

const robots: Record<string, { settings?: Record<string, unknown>; robot: DesktopRobot }> = {
  /** Logs, reports progress and returns two outputs whose names clash once normalised. */
  'escribe-salidas': {
    settings: { saludo: 'Hola', destino: 'ajustes del flujo' },
    robot: {
      async run(context) {
        context.log('info', `${String(context.settings['saludo'])}, ${String(context.inputs['nombre'])}`);
        context.progress(1, 2);
        context.log('warn', `Destino: ${String(context.settings['destino'])}`);
        context.progress(2, 2);
        return {
          result: 'Success',
          usageUnits: 2,
          outputs: [
            { name: 'informe: marzo.txt', data: text('primero') },
            { name: 'informe marzo.txt', data: text('segundo') },
          ],
          summary: { filas: 2, inicio: context.startedAt.toISOString() },
        };
      },
    },
  },
  /** Logs each file it was given and returns them back, renamed, with the inputs it saw. */
  'lee-archivos': {
    robot: {
      async run(context) {
        const outputs = Object.entries(context.files).flatMap(([key, files]) =>
          files.map((file) => {
            context.log('info', `${key}: ${file.name} (${file.data.byteLength} bytes)`);
            return { name: `copia de ${file.name}`, data: file.data };
          }),
        );
        return { result: 'Success', usageUnits: outputs.length, outputs, summary: { entradas: Object.keys(context.inputs).join(',') } };
      },
    },
  },
  'lanza-error': {
    robot: {
      async run(context) {
        context.log('info', 'Entrando en el portal');
        throw new Error('El portal no responde');
      },
    },
  },
  /** Waits for its signal, then gives up with a Fail (its time limit is what ends it). */
  'se-cuelga': {
    robot: {
      async run(context) {
        context.log('info', 'Esperando al portal');
        await aborted(context);
        return { result: 'Fail', usageUnits: 0, outputs: [], message: 'Cancelado' };
      },
    },
  },
  /** Ignores its signal: only killing its process ends it. Logs its pid for the orphan test. */
  'ignora-parada': {
    robot: {
      async run(context) {
        context.log('info', `pid ${process.pid}`);
        return forever();
      },
    },
  },
  /** Keeps everything it allocates until its heap runs out. */
  'agota-memoria': {
    robot: {
      async run(context) {
        context.log('info', 'Cargando todo en memoria');
        const hoard: number[][] = [];
        for (;;) hoard.push(Array.from({ length: 100_000 }, (_, index) => index * Math.random()));
      },
    },
  },
  /** Says which process runs it, and ends (the spare tests tell a spare from a fresh process by it). */
  'dice-pid': {
    robot: {
      async run(context) {
        context.log('info', `pid ${process.pid}`);
        return { result: 'Success', usageUnits: 0, outputs: [] };
      },
    },
  },
  /**
   * Streams 'grande.bin' (8 chunks of 64 KiB, byte n = n % 251) and closes it, leaves 'a medias.bin'
   * open, and returns 'informe.txt' as bytes after streaming one of that name; inputs.fin 'lanza'
   * throws instead of returning, 'espera' waits to be stopped.
   */
  'escribe-en-flujo': {
    robot: {
      async run(context) {
        const output = context.output;
        if (!output) throw new Error('sin salidas en flujo');
        const big = output('grande.bin');
        for (let chunk = 0; chunk < 8; chunk += 1) await big.write(Uint8Array.from({ length: 65_536 }, (_, at) => (chunk * 65_536 + at) % 251));
        await big.close();
        await output('a medias.bin').write(text('sin terminar'));
        const report = output('informe.txt');
        await report.write(text('en flujo'));
        await report.close();
        context.log('info', 'escrito');
        if (context.inputs['fin'] === 'lanza') throw new Error('falla después de escribir');
        if (context.inputs['fin'] === 'espera') await aborted(context);
        return { result: 'Success', usageUnits: 1, outputs: [{ name: 'informe.txt', data: text('en bytes') }] };
      },
    },
  },
  /** Returns something that is not a result. */
  'resultado-raro': {
    robot: {
      async run() {
        return { result: 'Quizás', usageUnits: 1, outputs: [] } as never;
      },
    },
  },
  /** Logs in to the stand-in portal with the chosen certificate and reads the welcome line. */
  portal: {
    settings: { baseUrl: 'https://sede.example', selectors: { loginLink: '#login', welcome: '#welcome' } },
    robot: {
      async run(context) {
        const baseUrl = String(context.settings['baseUrl']);
        const selectors = context.settings['selectors'] as { loginLink: string; welcome: string };
        const page = await context.openBrowser({ certificateInput: 'certificado', origins: [baseUrl] });
        await page.goto(baseUrl);
        await page.click(selectors.loginLink);
        const welcome = (await page.textContent(selectors.welcome)) ?? '';
        context.log('info', welcome);
        return { result: 'Success', usageUnits: 1, outputs: [{ name: 'bienvenida.txt', data: text(welcome) }], summary: { bienvenida: welcome } };
      },
    },
  },
  /** Opens its browser, logs its pid, and then ignores everything (the orphan test kills its parent). */
  'navegador-colgado': {
    robot: {
      async run(context) {
        const page = await context.openBrowser({ certificateInput: 'certificado', origins: ['https://sede.example'] });
        await page.goto('about:blank');
        context.log('info', `pid ${process.pid}`);
        return forever();
      },
    },
  },
  /** Waits on a page for something that never comes, with no timeout of its own: a stop must end it. */
  'espera-en-pagina': {
    robot: {
      async run(context) {
        const page = await context.openBrowser({ certificateInput: 'certificado', origins: ['https://sede.example'] });
        await page.setContent('<p>Cargando…</p>');
        context.log('info', `pid ${process.pid}`);
        await page.waitForSelector('#nunca', { timeout: 0 });
        return { result: 'Success', usageUnits: 0, outputs: [] };
      },
    },
  },
};

export const desktopFlows: readonly DesktopFlowEntry[] = Object.entries(robots).map(([id, { settings, robot }]) => ({
  id,
  settings: settings ?? {},
  loadRobot: async () => robot,
}));
