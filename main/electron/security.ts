import type { Session } from 'electron';

/**
 * Electron grants every permission a page asks for unless the app says otherwise. The renderer needs
 * none of camera, microphone, geolocation, notifications, MIDI, HID, serial… so everything is denied
 * except writing to the clipboard from our own server's pages (copy buttons).
 */
const ALLOWED_PERMISSIONS = new Set<string>(['clipboard-sanitized-write']);

export function isAllowedPermission(permission: string, requestingUrl: string | undefined, serverOrigin: string): boolean {
  if (!ALLOWED_PERMISSIONS.has(permission) || !requestingUrl) return false;
  try {
    return new URL(requestingUrl).origin === serverOrigin;
  } catch {
    return false;
  }
}

export function installPermissionHandlers(session: Session, serverOrigin: string): void {
  session.setPermissionRequestHandler((_webContents, permission, callback, details) => {
    callback(isAllowedPermission(permission, details.requestingUrl, serverOrigin));
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => isAllowedPermission(permission, requestingOrigin, serverOrigin));
  // USB / HID / serial devices: never.
  session.setDevicePermissionHandler(() => false);
}

/**
 * Hosts a link may open in the user's browser: official Spanish administration sites the flows
 * point to, our own sites, and the calendar providers whose event links the calendar shows.
 * A domain entry also covers its subdomains.
 */
const EXTERNAL_DOMAINS = ['autoasesor.es', 'seg-social.es', 'seg-social.gob.es', 'agenciatributaria.gob.es', 'agenciatributaria.es', 'sepe.es', 'boe.es'];
const EXTERNAL_HOSTS = ['calendar.google.com', 'www.google.com', 'outlook.office.com', 'outlook.office365.com', 'outlook.live.com'];

/**
 * shell.openExternal hands a URL to the operating system, which may run a program for it (file:,
 * smb:, custom schemes). Only https links to our server or a known host, and mailto:, are opened.
 */
export function isAllowedExternalUrl(raw: string, serverOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === 'mailto:') return /^[^@\s/]+@[^@\s/]+$/.test(decodeURIComponent(url.pathname));
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  if (url.origin === serverOrigin) return true;
  const host = url.hostname.toLowerCase();
  return EXTERNAL_HOSTS.includes(host) || EXTERNAL_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
