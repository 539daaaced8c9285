/**
 * A Content-Disposition header that offers a file for download under its own name: an ASCII fallback
 * for old clients and the exact (accented) name in RFC 5987 form.
 */
export function attachment(name: string): string {
  const fallback = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
