/**
 * The window's Content-Security-Policy: our server's scripts only, API calls to the same server. Images
 * may also be blob: URLs, the previews of files picked on this page (the form's logo); scripts never.
 */
export function contentSecurityPolicy(serverOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ${serverOrigin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
