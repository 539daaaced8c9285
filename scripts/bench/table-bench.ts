/**
 * Filter and sort times of the Table widget's model (TanStack Table core, no DOM) on 10,000 and
 * 100,000 run-history-like rows: the sizes run history and FIE lists reach. Goal: ≤ 50 ms for 10k.
 * `scripts/bench.ts` imports runTableBench(); `npx tsx scripts/bench/table-bench.ts` runs it alone.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createTableModel } from '../../renderer/ui/tableModel.ts';
import type { ColumnSpec } from '../../renderer/ui/tableModel.ts';

interface RunRow {
  id: string;
  robot: string;
  company: string;
  worker: string;
  date: Date;
  result: string;
  cost: number | null;
}

const robots = ['Altas RED', 'Bajas RED', 'Descarga FIE', 'Certificados AEAT', 'Sincronizar A3', 'Partes IT', 'Notificaciones DEHú'];
const surnames = ['GARCÍA', 'MUÑOZ', 'LÓPEZ', 'PÉREZ', 'SÁNCHEZ', 'MARTÍN', 'GÓMEZ', 'RUIZ', 'DÍAZ', 'ÁLVAREZ'];
const results = ['Completado', 'Error', 'Parcial', 'Cancelado'];

function runs(count: number): RunRow[] {
  const start = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, index) => ({
    id: `run-${index}`,
    robot: robots[index % robots.length] ?? '',
    company: `Empresa ${index % 1000} SL`,
    worker: `${surnames[index % surnames.length]} ${surnames[(index * 7) % surnames.length]}, Nombre${index % 97}`,
    // Scrambled so a sort has real work to do.
    date: new Date(start + ((index * 7919) % count) * 60_000),
    result: results[index % results.length] ?? '',
    cost: index % 11 === 0 ? null : (index * 37) % 500,
  }));
}

const columns: ColumnSpec<RunRow>[] = [
  { key: 'robot', header: 'Robot', sortValue: (row) => row.robot },
  { key: 'company', header: 'Empresa', sortValue: (row) => row.company },
  { key: 'worker', header: 'Trabajador', sortValue: (row) => row.worker },
  { key: 'date', header: 'Fecha', sortValue: (row) => row.date },
  { key: 'result', header: 'Resultado', sortValue: (row) => row.result },
  { key: 'cost', header: 'Coste', sortValue: (row) => row.cost },
];

/** Median of `runs` timings in ms, after one warm-up run. */
async function median(runsCount: number, work: (run: number) => void): Promise<number> {
  work(-1);
  const times: number[] = [];
  for (let run = 0; run < runsCount; run += 1) {
    // Let the collector catch up between runs so one run does not pay for the last.
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    work(run);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

const ms = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });

// Alternating values so TanStack's memoised row models must recompute on every timed run.
const searches = ['garcia muñoz', 'lopez', 'error', 'empresa 12', 'descarga fie'];
const sorts = [
  { id: 'worker', desc: false },
  { id: 'date', desc: true },
  { id: 'cost', desc: true },
  { id: 'company', desc: false },
  { id: 'robot', desc: true },
];

/**
 * One table per size, as a screen holds one: loading the rows (TanStack's core row model) is timed
 * once; what repeats while the user works, a search keystroke and a click on a header, is timed over
 * the same table.
 */
async function measure(count: number, runsCount: number): Promise<{ lines: string[]; worst: number }> {
  const rows = runs(count);
  const table = createTableModel({ rows, columns });
  let started = performance.now();
  table.getCoreRowModel();
  const load = performance.now() - started;
  started = performance.now();
  table.setGlobalFilter('garcia');
  table.getFilteredRowModel();
  const firstSearch = performance.now() - started;
  table.setGlobalFilter('');

  const search = await median(runsCount, (run) => {
    table.setGlobalFilter(searches[(run + searches.length) % searches.length] ?? '');
    table.getFilteredRowModel();
  });
  table.setGlobalFilter('');
  const sort = await median(runsCount, (run) => {
    table.setSorting([sorts[(run + sorts.length) % sorts.length] ?? { id: 'worker', desc: false }]);
    table.getSortedRowModel();
  });
  const both = await median(runsCount, (run) => {
    table.setGlobalFilter(searches[(run + 1 + searches.length) % searches.length] ?? '');
    table.setSorting([sorts[(run + 1 + sorts.length) % sorts.length] ?? { id: 'worker', desc: false }]);
    table.getPaginationRowModel();
  });
  const lines = [
    `Tabla (TanStack Table, sin DOM): ${whole.format(count)} filas`,
    `  carga de filas (modelo base, una vez):  ${ms.format(load)} ms`,
    `  primera búsqueda (normaliza el texto):  ${ms.format(firstSearch)} ms`,
    `  búsqueda (mediana de ${runsCount}):              ${ms.format(search)} ms`,
    `  orden por columna (mediana de ${runsCount}):     ${ms.format(sort)} ms`,
    `  búsqueda + orden + página:              ${ms.format(both)} ms`,
  ];
  return { lines, worst: Math.max(search, sort) };
}

export async function runTableBench(): Promise<string[]> {
  const small = await measure(10_000, 7);
  const large = await measure(100_000, 3);
  const verdict = small.worst <= 50 ? 'cumple' : 'NO cumple';
  return [...small.lines, `  objetivo ≤ 50 ms (búsqueda u orden) con 10.000 filas: ${verdict} (peor: ${ms.format(small.worst)} ms)`, ...large.lines];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runTableBench()) console.log(line);
}
