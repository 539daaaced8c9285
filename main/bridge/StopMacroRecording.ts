import { closeRecording, recordingOf } from '../macros/recorder.ts';
import { BridgeFailure, type Handler } from './context.ts';
import { firstLine } from './StartMacroRecording.ts';

/**
 * Ends the recording: the browser closes, the passwords typed are sealed on this PC (the macro keeps a
 * reference), and the macro draft comes back for the screen to save. Also after the user closed the browser.
 */
export const StopMacroRecording: Handler<'StopMacroRecording'> = async ({ recordingId }) => {
  const recording = recordingOf(recordingId);
  if (!recording) throw new BridgeFailure('NOT_FOUND', 'Esta grabación ya no está abierta en este equipo.');
  try {
    return { macro: await recording.stop() };
  } catch (error) {
    throw new BridgeFailure('FAILED', `No se ha podido terminar la grabación: ${firstLine(error)}`);
  } finally {
    await closeRecording();
  }
};
