import { DEVICE_STOPPED_MESSAGE, type deviceRunOutcomeSchema } from '#shared/api/devices.ts';
import type { z } from 'zod/mini';
import type { RobotFile } from '#shared/flows/robot.ts';
import { validationError } from '../../http/errors.ts';
import { aborted, closingFor, type Closing, type DesktopOutputs } from '../runs/closing.ts';

export type DeviceRunOutcome = z.output<typeof deviceRunOutcomeSchema>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The files a device sent (base64) as bytes; a malformed one is a 400 before anything is written. */
function decodeOutputs(outputs: readonly { name: string; base64: string }[]): RobotFile[] {
  const issues = outputs.flatMap((file, index) =>
    file.base64.length % 4 === 0 && BASE64.test(file.base64) ? [] : [{ path: `outputs.${index}.base64`, message: `«${file.name}» no llega en base64` }],
  );
  if (issues.length > 0) throw validationError(issues);
  return outputs.map((file) => ({ name: file.name, data: Buffer.from(file.base64, 'base64') }));
}

/**
 * How a run on a machine ended, as a Closing: the same statuses and charges as a server worker's
 * outcome (closingFor), except that a desktop that stopped on its own (closed mid-run) is 299, not
 * charged. Files travel only for runs that send them to the server; the rest stay on the machine.
 */
export function closingForDevice(
  outcome: DeviceRunOutcome,
  timeLimitSeconds: number,
  sendOutputToServer: boolean,
  /** The outputs' bytes when they came as multipart files (named by outcome.outputs, in order). */
  files?: readonly Buffer[],
): { closing: Closing; desktop: DesktopOutputs | undefined } {
  switch (outcome.kind) {
    case 'result': {
      const outputs = !sendOutputToServer ? [] : files ? outcome.outputs.map((file, index) => ({ name: file.name, data: files[index] ?? Buffer.alloc(0) })) : decodeOutputs(outcome.outputs);
      const result = {
        result: outcome.result,
        usageUnits: outcome.usageUnits,
        outputs,
        ...(outcome.summary !== undefined && { summary: outcome.summary }),
        ...(outcome.message !== undefined && { message: outcome.message }),
      };
      return { closing: closingFor({ kind: 'result', result }, timeLimitSeconds, 'user'), desktop: { outputFolder: outcome.outputFolder, outputFileNames: outcome.outputFileNames } };
    }
    case 'stopped':
      return { closing: outcome.by === 'user' ? closingFor({ kind: 'stopped' }, timeLimitSeconds, 'user') : aborted(DEVICE_STOPPED_MESSAGE, false), desktop: undefined };
    default:
      return { closing: closingFor(outcome, timeLimitSeconds, 'user'), desktop: undefined };
  }
}
