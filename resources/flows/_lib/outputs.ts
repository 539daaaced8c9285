import type { RobotContext, RobotFile, RobotOutput } from '#shared/flows/robot.ts';

/**
 * An output a robot writes in chunks: through the runtime's `context.output` when it gives one (every
 * runtime does: the bytes go to storage as they are written), else gathered here and given back as bytes
 * for the result's `outputs` (a context built by hand, in a bench or a test).
 */
export interface OpenedOutput {
  sink: RobotOutput;
  /** What the result's `outputs` must add: nothing when streamed, the gathered file when closed here. */
  files(): RobotFile[];
}

export function openOutput(context: Pick<RobotContext, 'output'>, name: string): OpenedOutput {
  if (context.output) {
    const sink = context.output(name);
    return { sink, files: () => [] };
  }
  const chunks: Uint8Array[] = [];
  let closed = false;
  return {
    sink: {
      write: (chunk) => {
        chunks.push(chunk);
        return Promise.resolve();
      },
      close: () => {
        closed = true;
        return Promise.resolve();
      },
    },
    files: () => (closed ? [{ name, data: concatenated(chunks) }] : []),
  };
}

/** An output's chunks as one file's bytes. */
export function concatenated(chunks: readonly Uint8Array[]): Uint8Array {
  const data = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    data.set(chunk, offset);
    offset += chunk.length;
  }
  return data;
}
