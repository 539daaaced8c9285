import { normalizeFilename } from '../files/index.ts';
import type { RobotFile, RobotResult } from './robot.ts';

/**
 * A robot's result as it crossed a thread or process boundary, checked before anything is stored,
 * written or charged (the server's run process and the desktop runtime alike). Its `outputs` are the
 * ones given as bytes; those streamed through context.output are already on disk, listed by the runtime.
 */
export function isRobotResult(value: unknown): value is RobotResult {
  const result = value as Partial<RobotResult> | null;
  return (
    typeof result === 'object' && result !== null &&
    (result.result === 'Success' || result.result === 'Fail' || result.result === 'WrongInput') &&
    typeof result.usageUnits === 'number' && Number.isFinite(result.usageUnits) && result.usageUnits >= 0 &&
    Array.isArray(result.outputs) &&
    result.outputs.every((file) => typeof file?.name === 'string' && file.data instanceof Uint8Array)
  );
}

export interface UniqueNamesOptions {
  /** Names already in the place the files go (a desktop run's folder). */
  taken?: Iterable<string>;
  /** Compare names as Windows and macOS folders do, where 'Informe.pdf' and 'informe.pdf' are one file. */
  ignoreCase?: boolean;
}

/** Output names as stored: normalised, and unique within the run ('x.xlsx', 'x (2).xlsx'). */
export function uniqueNames(files: readonly Pick<RobotFile, 'name'>[], options: UniqueNamesOptions = {}): string[] {
  const key = (name: string) => (options.ignoreCase ? name.toLowerCase() : name);
  const taken = new Set([...(options.taken ?? [])].map(key));
  return files.map((file) => {
    const name = normalizeFilename(file.name) || 'resultado';
    const dot = name.lastIndexOf('.');
    const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let copy = 2; taken.has(key(candidate)); copy += 1) candidate = `${base} (${copy})${extension}`;
    taken.add(key(candidate));
    return candidate;
  });
}
