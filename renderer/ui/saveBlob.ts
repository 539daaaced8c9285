/** Hands a blob to the browser as a download named `filename` (an object URL clicked through a link). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has already handed the blob to the download; the URL is not needed after this tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
