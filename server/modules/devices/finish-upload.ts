import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { DEVICE_FINISH_OUTPUTS_MAX_BYTES } from '#shared/api/devices.ts';
import { formatBytes } from '#shared/files/size.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../../http/json-body.ts';

export const FINISH_OUTPUTS_TOO_LARGE_MESSAGE = `Los archivos de resultado ocupan más de ${formatBytes(DEVICE_FINISH_OUTPUTS_MAX_BYTES)}: siguen en el dispositivo`;
const FINISH_FORM_MESSAGE = 'Envía primero el campo «outcome» (JSON) y después los archivos en «outputs», en el orden de outcome.outputs';

/**
 * A multipart finish (issue 39, 2): the outcome as JSON in the field `outcome`, then the output files in
 * `outputs`, in the order of the outcome's `outputs`. The files stream in chunks as they arrive (no
 * JSON of tens of MB parsed on the event loop), DEVICE_FINISH_OUTPUTS_MAX_BYTES in all.
 */
export async function readMultipartFinish(request: FastifyRequest): Promise<{ outcome: unknown; files: Buffer[] }> {
  let outcome: unknown;
  const files: Buffer[] = [];
  let total = 0;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname !== 'outcome' || outcome !== undefined) throw validationError([{ path: part.fieldname, message: FINISH_FORM_MESSAGE }]);
      const text = String(part.value);
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw validationError([{ path: 'outcome', message: FINISH_FORM_MESSAGE }]);
      try {
        outcome = JSON.parse(text);
      } catch {
        throw validationError([{ path: 'outcome', message: FINISH_FORM_MESSAGE }]);
      }
      continue;
    }
    if (part.fieldname !== 'outputs' || outcome === undefined) {
      part.file.resume();
      throw validationError([{ path: part.fieldname, message: FINISH_FORM_MESSAGE }]);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > DEVICE_FINISH_OUTPUTS_MAX_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', FINISH_OUTPUTS_TOO_LARGE_MESSAGE);
      chunks.push(chunk);
      // A turn of the event loop now and then: the files of 3 finishes arriving at once over a fast link
      // would otherwise be read chunk after chunk ahead of every other request.
      if (chunks.length % 8 === 0) await nextTurn();
    }
    if (part.file.truncated) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', FINISH_OUTPUTS_TOO_LARGE_MESSAGE);
    files.push(Buffer.concat(chunks));
  }
  if (outcome === undefined) throw validationError([{ path: 'outcome', message: FINISH_FORM_MESSAGE }]);
  return { outcome, files };
}

/** The outcome of a multipart finish names each file sent (base64 left empty), no more, no fewer. */
export function checkFinishFiles(outputs: readonly { name: string; base64: string }[], files: readonly Buffer[]): void {
  if (outputs.length !== files.length || outputs.some((file) => file.base64 !== '')) throw validationError([{ path: 'outputs', message: FINISH_FORM_MESSAGE }]);
}
