import { recordingOf } from '../macros/recorder.ts';
import { BridgeFailure, type Handler } from './context.ts';

/** The steps recorded so far and whether the recording browser is still open (the screen polls it every second). */
export const GetMacroRecording: Handler<'GetMacroRecording'> = async ({ recordingId }) => {
  const recording = recordingOf(recordingId);
  if (!recording) throw new BridgeFailure('NOT_FOUND', 'Esta grabación ya no está abierta en este equipo.');
  return { steps: recording.steps(), open: recording.open };
};
