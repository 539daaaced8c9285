/**
 * What the macro tools (recorder, scraper) and the macro player take from this installation: the
 * robots' Chromium (CHROMIUM_PATH, as the runtime uses it) and the 'macros' entry of
 * AUTOASESOR_ROBOT_SETTINGS ({ "macros": { "ignoreHTTPSErrors": true } } for a stand-in site with a test
 * server certificate), the settings every macro flow gets under its own id.
 */
export const MACRO_SETTINGS_KEY = 'macros';

export function macroSettings(env: NodeJS.ProcessEnv): Record<string, unknown> {
  // Read here rather than with device-host's reader, which the robot's child process should not load.
  try {
    const entry = (JSON.parse(env.AUTOASESOR_ROBOT_SETTINGS?.trim() || '{}') as Record<string, unknown>)[MACRO_SETTINGS_KEY];
    return typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {};
  } catch {
    // A malformed variable is reported where the runtime reads it; the tools go on with the defaults.
    return {};
  }
}

export function macroHost(env: NodeJS.ProcessEnv): { chromiumPath: string | null; ignoreHTTPSErrors: boolean } {
  return { chromiumPath: env.CHROMIUM_PATH || null, ignoreHTTPSErrors: macroSettings(env)['ignoreHTTPSErrors'] === true };
}
