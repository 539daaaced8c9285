import { describe, expect, it } from 'vitest';
import { robotSettingsFromEnv } from './device-host.ts';

describe('AUTOASESOR_ROBOT_SETTINGS', () => {
  it('reads per-flow overrides, and nothing when unset', () => {
    expect(robotSettingsFromEnv({})).toEqual({});
    expect(robotSettingsFromEnv({ AUTOASESOR_ROBOT_SETTINGS: '{"descargar-justificantes":{"baseUrl":"https://127.0.0.1:8443","ignoreHTTPSErrors":true}}' })).toEqual({
      'descargar-justificantes': { baseUrl: 'https://127.0.0.1:8443', ignoreHTTPSErrors: true },
    });
  });

  it.each(['{roto', '[1,2]', '{"robot":3}', '"texto"'])('refuses %s naming the variable', (value) => {
    expect(() => robotSettingsFromEnv({ AUTOASESOR_ROBOT_SETTINGS: value })).toThrow(/^AUTOASESOR_ROBOT_SETTINGS /);
  });
});
