/** The stand-in's HTML: a plain, accessible Spanish consent page and an error page that never redirects. */
import { escapeHtml } from './http.ts';
import type { Provider } from './store.ts';

export const PROVIDER_TITLES: Record<Provider, string> = { google: 'Google (simulado)', microsoft: 'Microsoft (simulado)' };

/** What a scope lets the app do, in words a user reads on the consent page. */
const SCOPE_WORDS: Record<string, string> = {
  openid: 'Saber quién eres',
  email: 'Ver tu dirección de correo',
  profile: 'Ver tu nombre',
  offline_access: 'Mantener el acceso cuando no estés usando la aplicación',
  'https://www.googleapis.com/auth/gmail.send': 'Enviar correo en tu nombre',
  'Mail.Send': 'Enviar correo en tu nombre',
  'https://graph.microsoft.com/Mail.Send': 'Enviar correo en tu nombre',
};

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
label{display:block;font-weight:600;margin-top:1rem}input[type=email]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{padding:.6rem 1.2rem;font-size:1rem}.error{color:#a40000}</style></head>
<body><main>${content}</main></body></html>`;
}

export interface ConsentPage {
  provider: Provider;
  action: string;
  clientName: string;
  email: string;
  scopes: string[];
  /** The authorization request's parameters, sent back with the decision. */
  params: URLSearchParams;
}

export function consentPage(page: ConsentPage): string {
  const hidden = [...page.params.entries()]
    .filter(([name]) => name !== 'email' && name !== 'decision')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const scopes = page.scopes.map((scope) => `<li>${escapeHtml(SCOPE_WORDS[scope] ?? scope)} <small>(${escapeHtml(scope)})</small></li>`).join('\n');
  return layout(
    PROVIDER_TITLES[page.provider],
    `<h1>${escapeHtml(PROVIDER_TITLES[page.provider])}</h1>
<p>La aplicación <strong>${escapeHtml(page.clientName)}</strong> quiere acceder a tu cuenta.</p>
<form method="post" action="${escapeHtml(page.action)}">
${hidden}
<label for="email">Correo electrónico</label>
<input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(page.email)}">
<h2>Permisos solicitados</h2>
<ul>
${scopes}
</ul>
<div class="actions">
<button type="submit" name="decision" value="allow">Permitir</button>
<button type="submit" name="decision" value="deny" formnovalidate>Cancelar</button>
</div>
</form>`,
  );
}

export function errorPage(provider: Provider, error: string, description: string): string {
  return layout(
    `Error - ${PROVIDER_TITLES[provider]}`,
    `<h1>${escapeHtml(PROVIDER_TITLES[provider])}</h1>
<div role="alert" class="error"><h2>No se puede continuar con la autorización</h2>
<p>${escapeHtml(description)}</p><p><small>Código: ${escapeHtml(error)}</small></p></div>`,
  );
}
