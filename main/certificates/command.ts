import { execFile } from 'node:child_process';

/**
 * Running the OS tools that list certificate stores (PowerShell, macOS `security`), behind a small type
 * so the store readers can be tested on recorded outputs.
 */

export interface CommandOutput {
  /** The program ran to its end: its exit code and what it printed (UTF-8). */
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell. Resolves whatever the exit code; rejects with CommandError when it could not run to its end. */
export type RunCommand = (file: string, args: readonly string[]) => Promise<CommandOutput>;

export type CommandFailure = 'not-found' | 'timeout' | 'too-much-output' | 'failed';

/** The program could not be started, ran out of time or printed more than we read. Spanish message. */
export class CommandError extends Error {
  constructor(
    readonly failure: CommandFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CommandError';
  }
}

export interface CommandLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

/** A store with a few hundred certificates prints a few MB at most (PowerShell's JSON carries each DER in base64). */
export const DEFAULT_COMMAND_LIMITS: CommandLimits = { timeoutMs: 30_000, maxOutputBytes: 32 * 1024 * 1024 };

interface ExecFailure extends Error {
  code?: string | number | null;
  killed?: boolean;
  signal?: NodeJS.Signals | null;
}

export function createCommandRunner(limits: CommandLimits = DEFAULT_COMMAND_LIMITS): RunCommand {
  return (file, args) => new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      { encoding: 'utf8', timeout: limits.timeoutMs, maxBuffer: limits.maxOutputBytes, windowsHide: true },
      (error: ExecFailure | null, stdout, stderr) => {
        if (error === null) {
          resolve({ exitCode: 0, stdout, stderr });
          return;
        }
        if (error.code === 'ENOENT') {
          reject(new CommandError('not-found', `No se encontró el programa ${file}`, { cause: error }));
        } else if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          reject(new CommandError('too-much-output', `${file} devolvió más datos de los que se pueden leer`, { cause: error }));
        } else if (error.killed === true && error.signal !== null) {
          reject(new CommandError('timeout', `${file} no respondió en ${Math.round(limits.timeoutMs / 1000)} s`, { cause: error }));
        } else if (typeof error.code === 'number') {
          resolve({ exitCode: error.code, stdout, stderr });
        } else {
          reject(new CommandError('failed', `No se pudo ejecutar ${file}: ${error.message}`, { cause: error }));
        }
      },
    );
  });
}

/** The real runner, with the default limits. */
export const runCommand: RunCommand = createCommandRunner();
