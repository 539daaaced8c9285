/** The small pages the loopback listener answers the browser with (Spanish, no script, no outside resource). */

export const CONNECTED_PAGE_MESSAGE = 'Cuenta conectada. Ya puedes cerrar esta pestaña y volver a AutoAsesor.';
export const NOT_THIS_CONNECTION_MESSAGE = 'Esta dirección no corresponde a ninguna conexión en curso de AutoAsesor.';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function resultPage(title: string, message: string): string {
  return [
    '<!doctype html>',
    '<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`,
  ].join('');
}

export const connectedPage = (): string => resultPage('AutoAsesor', CONNECTED_PAGE_MESSAGE);
export const failedPage = (message: string): string => resultPage('AutoAsesor: no se ha conectado la cuenta', message);
