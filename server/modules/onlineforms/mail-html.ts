/** The HTML part of this module's mails: the text's paragraphs, escaped, and the link as a button and as text. */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Paragraphs (blank-line separated; single line breaks kept) and the link, clickable and written out. */
export function mailHtml(paragraphs: readonly string[], link: { href: string; label: string }): string {
  const body = paragraphs
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p style="margin:0 0 16px">${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const href = escapeHtml(link.href);
  return (
    '<!doctype html><html lang="es"><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1b1f24">' +
    body +
    `<p style="margin:24px 0"><a href="${href}" style="background:#1f4e79;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(link.label)}</a></p>` +
    `<p style="margin:0;font-size:13px;color:#555">Si el botón no funciona, copia este enlace en el navegador:<br><a href="${href}">${href}</a></p>` +
    '</body></html>'
  );
}
