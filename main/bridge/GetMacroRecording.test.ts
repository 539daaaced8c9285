import { describe, expect, it } from 'vitest';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

describe('GetMacroRecording', () => {
  it('a recording that is not open on this PC is not found (the live run is in StartMacroRecording.test.ts)', async () => {
    expect(await dispatch('GetMacroRecording', { recordingId: 'no-existe' }, fakeContext())).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Esta grabación ya no está abierta en este equipo.' },
    });
    expect(await dispatch('GetMacroRecording', {}, fakeContext())).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
  });
});
