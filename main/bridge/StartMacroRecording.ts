import { machineMacroSecretStore } from '../macros/secrets.ts';
import { macroHost } from '../macros/host.ts';
import { RecordingBusy, startRecording } from '../macros/recorder.ts';
import { BridgeFailure, type Handler } from './context.ts';

/**
 * Opens the macro recorder (main/macros/recorder.ts): the robot's Chromium at startUrl, with the chosen
 * certificate of this PC presented to its origin. The user records in that window; the screen polls
 * GetMacroRecording and ends with StopMacroRecording. One recording at a time on this PC.
 */
export const StartMacroRecording: Handler<'StartMacroRecording'> = async ({ startUrl, certificateFingerprint }, ctx) => {
  const certificate = certificateFingerprint === undefined ? undefined : await certificateOf(certificateFingerprint, ctx);
  const { chromiumPath, ignoreHTTPSErrors } = macroHost(process.env);
  try {
    const recording = await startRecording({ startUrl, ...(certificate && { certificate }), chromiumPath, env: process.env, secrets: machineMacroSecretStore(), ignoreHTTPSErrors });
    return { recordingId: recording.id };
  } catch (error) {
    if (error instanceof RecordingBusy) throw new BridgeFailure('FORBIDDEN', error.message);
    throw new BridgeFailure('FAILED', `No se ha podido abrir el navegador de grabación en ${startUrl}: ${firstLine(error)}`);
  }
};

/** The certificate's PKCS#12 for the recording browser (never written to disk). */
export async function certificateOf(fingerprint: string, ctx: Parameters<Handler<'StartMacroRecording'>>[1]): Promise<{ pfx: Buffer; passphrase: string }> {
  try {
    return await ctx.certificates.clientCertificate(fingerprint);
  } catch (error) {
    throw new BridgeFailure('NOT_FOUND', firstLine(error) || 'El certificado elegido no está en este equipo.');
  }
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
