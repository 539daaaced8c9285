import { sampleFieChunks } from '#shared/fie/sample.ts';
import type { RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import { toMadridParts } from '#shared/time/index.ts';
import { sampleAltasWorkbook } from '../../resources/flows/comprobar-altas-red/sample.ts';
import { sampleWorkbook } from '../../resources/flows/validar-identificadores/sample.ts';
import { fileDate } from './demo-file-date.ts';

/** The flows of the demo's history whose robots run on the server. */
export type DemoFlowId = 'validar-identificadores' | 'fie-incidencias-a3' | 'comprobar-altas-red';

/** What the demo process is asked to run for one seeded run. */
export interface DemoJob {
  runId: string;
  flowId: DemoFlowId;
  /** Rows or FIE entries of the generated input. */
  items: number;
  /** ISO-8601: the run's start, which dates its input and its robot's checks. */
  startedAt: string;
}

export interface DemoInput {
  /** The flow's FileUpload input. */
  key: string;
  name: string;
  data: Uint8Array;
}

/** What the demo process answers for one run: the input it made and what the robot did with it. */
export type DemoJobDone =
  | {
      runId: string;
      input: DemoInput;
      lines: { level: RobotLogLevel; text: string }[];
      progress: { successful: number; total: number };
      result: RobotResult;
    }
  | { runId: string; failure: string };

/** What the run was launched with: a file of its flow's kind and of its size, dated by the run. */
export function demoInput(run: { flowId: DemoFlowId; items: number; startedAt: Date }): DemoInput {
  const today = toMadridParts(run.startedAt);
  switch (run.flowId) {
    case 'validar-identificadores':
      return { key: 'workbook', name: `trabajadores_${fileDate(run.startedAt)}.xlsx`, data: sampleWorkbook(run.items) };
    case 'comprobar-altas-red':
      return { key: 'workbook', name: `altas_${fileDate(run.startedAt)}.xlsx`, data: sampleAltasWorkbook(run.items, today) };
    case 'fie-incidencias-a3': {
      // The leaves began the month before the file, which SILTRA sent on the run's day.
      const start = today.month === 1 ? { year: today.year - 1, month: 12 } : { year: today.year, month: today.month - 1 };
      const text = [...sampleFieChunks(run.items, 2_000, start, fileDate(run.startedAt))].join('');
      return { key: 'fies', name: `FIE_${fileDate(run.startedAt)}.txt`, data: Buffer.from(text, 'latin1') };
    }
  }
}
