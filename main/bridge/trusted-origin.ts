/**
 * The desktop window may only talk to the bridge while it shows our own renderer: the server the
 * user chose in the settings. Any other page (a link that navigated away, an iframe) is refused.
 */
export function isTrustedRendererUrl(frameUrl: string | undefined, serverUrl: string): boolean {
  if (!frameUrl) return false;
  try {
    return new URL(frameUrl).origin === new URL(serverUrl).origin;
  } catch {
    return false;
  }
}
