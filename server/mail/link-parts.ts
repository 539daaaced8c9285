/**
 * The two parts of a mail that names a link: the text (with the link written out, added at the end
 * when the text does not hold it) and an HTML part built from the same lines, every line escaped and
 * each occurrence of a link an `<a href>`. User text (a ticket's body) is never HTML here.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with the link in it: as it is when it already names the link, else the link on its own last line. */
export function textWithLink(text: string, link: string): string {
  return text.includes(link) ? text : `${text.replace(/\s+$/, '')}\n\n${link}`;
}

/** The web addresses a text names (a sentence's closing punctuation is not part of one). */
export function linksIn(text: string): string[] {
  return [...new Set((text.match(/https?:\/\/[^\s<>"]+/g) ?? []).map((link) => link.replace(/[.,;:!?)»]+$/, '')))];
}

/** One escaped line, with each of the links (escaped the same way) an anchor wherever it occurs. */
function lineHtml(line: string, links: readonly string[]): string {
  if (links.length === 0) return escapeHtml(line);
  // Longest first: a link that starts another is not taken for it.
  const pattern = new RegExp(`(${[...links].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})`);
  return line
    .split(pattern)
    .map((part, index) => (index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

/** The HTML part of `text`: paragraphs at blank lines, line breaks kept, `links` clickable. */
export function linkHtml(text: string, links: readonly string[]): string {
  const paragraphs = text
    .split(/\n\s*\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p style="margin:0 0 16px">${paragraph.split('\n').map((line) => lineHtml(line, links)).join('<br>')}</p>`)
    .join('');
  return `<!doctype html><html lang="es"><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1b1f24">${paragraphs}</body></html>`;
}

/** Text and HTML of a mail about `link`; a caller's own HTML part (one with a button) is kept. */
export function linkMailParts(text: string, link: string, html?: string): { text: string; html: string } {
  const full = textWithLink(text, link);
  return { text: full, html: html ?? linkHtml(full, [link]) };
}

/** A notice's HTML part when its text names web addresses (a run in the history, the page to link a mailbox again); else none. */
export function noticeHtml(text: string): string | undefined {
  const links = linksIn(text);
  return links.length > 0 ? linkHtml(text, links) : undefined;
}
