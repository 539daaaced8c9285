/**
 * What a person sees: the hosted checkout page (`/c/pay/:id`, in Spanish, plain accessible HTML), the
 * hosted invoice page, and the invoice PDF (small, but a real PDF any reader opens).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CheckoutProblem, type Billing } from './billing.ts';
import { escapeHtml, readBody, send, sendHtml, seeOther } from './http.ts';
import type { CheckoutSession, Invoice, Price, Product } from './objects.ts';
import type { StripeStore } from './store.ts';

const euros = (cents: number) => `${(cents / 100).toFixed(2).replace('.', ',')} €`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}label{display:block;margin-top:.8rem}input{display:block;width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem}[role=alert]{color:#a40000;font-weight:600}</style>
</head><body><main>${body}</main></body></html>`;
}

/** What the session sells, for the page: "Básico — 49,00 € al mes" and the metered part. */
function summary(store: StripeStore, session: CheckoutSession): string {
  if (session.mode === 'setup') return '<h1>Añadir una tarjeta</h1><p>La tarjeta se guardará para los próximos pagos.</p>';
  const lines = session._line_items.map(({ price: priceId }) => {
    const price = store.get<Price>('price', priceId);
    const product = store.get<Product>('product', price.product);
    const amount = price.recurring?.usage_type === 'metered' ? `${Number(price.unit_amount_decimal).toLocaleString('es-ES', { maximumFractionDigits: 6 })} céntimos por unidad de uso, a mes vencido` : `${euros(price.unit_amount ?? 0)} al mes`;
    return `<li>${escapeHtml(product.name)}: ${escapeHtml(amount)}</li>`;
  });
  return `<h1>Suscribirse</h1><ul>${lines.join('')}</ul><p>Hoy se cobran <strong>${euros(session.amount_total ?? 0)}</strong>.</p>`;
}

export function checkoutPage(store: StripeStore, session: CheckoutSession, error: string | null = null): string {
  if (session.status === 'expired') {
    return layout('Pago caducado', `<h1>Esta página de pago ha caducado.</h1><p>Vuelve a la aplicación para empezar de nuevo.</p>${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Volver</a></p>` : ''}`);
  }
  if (session.status !== 'open') {
    return layout('Pago completado', `<h1>Este pago ya se ha completado.</h1>${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Volver</a></p>` : ''}`);
  }
  const button = session.mode === 'setup' ? 'Guardar tarjeta' : 'Suscribirse';
  const field = (name: string, label: string, extra: string) => `<label for="${name}">${label}</label><input id="${name}" name="${name}" required ${extra}>`;
  return layout(
    session.mode === 'setup' ? 'Añadir una tarjeta' : 'Suscribirse',
    `${summary(store, session)}
${error === null ? '' : `<p role="alert">${escapeHtml(error)}</p>`}
<form method="post" action="/c/pay/${escapeHtml(session.id)}">
${field('card', 'Número de tarjeta', 'inputmode="numeric" autocomplete="cc-number"')}
${field('exp', 'Caducidad (MM/AA)', 'autocomplete="cc-exp" placeholder="MM/AA"')}
${field('cvc', 'CVC', 'inputmode="numeric" autocomplete="cc-csc"')}
${field('name', 'Titular', 'autocomplete="cc-name"')}
<button type="submit">${button}</button>
</form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Volver</a></p>` : ''}`,
  );
}

/** The hosted page's form: checked as Stripe's page checks it, then completed as completeCheckout does. */
export async function postCheckout(store: StripeStore, billing: Billing, session: CheckoutSession, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await readBody(request));
  const number = (form.get('card') ?? '').replace(/\s/g, '');
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(form.get('exp') ?? '');
  const cvc = form.get('cvc') ?? '';
  const name = (form.get('name') ?? '').trim();
  const month = Number(expiry?.[1]);
  const year = 2000 + Number(expiry?.[2]);
  const now = new Date(store.now() * 1000);
  let error: string | null = null;
  if (!/^\d{12,19}$/.test(number)) error = 'El número de tarjeta no es válido.';
  else if (expiry === null || month < 1 || month > 12 || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) error = 'La fecha de caducidad no es válida.';
  else if (!/^\d{3,4}$/.test(cvc)) error = 'El CVC no es válido.';
  else if (name === '') error = 'Escribe el nombre del titular.';
  if (error === null) {
    try {
      const { redirectUrl } = billing.completeCheckout(session.id, { number, expMonth: month, expYear: year, name });
      return seeOther(response, redirectUrl);
    } catch (problem) {
      if (!(problem instanceof CheckoutProblem)) throw problem;
      error = problem.message;
    }
  }
  sendHtml(response, session.status === 'open' ? 400 : 409, checkoutPage(store, session, error));
}

export function invoicePage(invoice: Invoice): string {
  const status = { draft: 'Borrador', open: 'Pendiente de pago', paid: 'Pagada', void: 'Anulada', uncollectible: 'Incobrable' }[invoice.status];
  const lines = invoice.lines.data.map((line) => `<tr><td>${escapeHtml(String(line.description ?? ''))}</td><td>${euros(line.amount)}</td></tr>`).join('');
  return layout(`Factura ${invoice.number ?? ''}`, `<h1>Factura ${escapeHtml(invoice.number ?? '')}</h1><p>${status}</p><table><caption>Conceptos</caption><thead><tr><th scope="col">Concepto</th><th scope="col">Importe</th></tr></thead><tbody>${lines}</tbody></table><p>Total: <strong>${euros(invoice.total)}</strong></p>${invoice.invoice_pdf ? `<p><a href="${escapeHtml(invoice.invoice_pdf)}">Descargar PDF</a></p>` : ''}`);
}

/** A one-page PDF 1.4 with the invoice's number, lines and total, its xref offsets computed. */
export function invoicePdf(invoice: Invoice): Buffer {
  const ascii = (text: string) => text.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/[\\()]/g, (char) => `\\${char}`);
  const amount = (cents: number) => `${(cents / 100).toFixed(2).replace('.', ',')} EUR`;
  const rows = [`Factura ${invoice.number ?? invoice.id}`, `Cliente: ${invoice.customer_name ?? invoice.customer}`, ...invoice.lines.data.map((line) => `${line.description ?? ''}: ${amount(line.amount)}`), `Total: ${amount(invoice.total)}`];
  const content = `BT /F1 12 Tf 56 780 Td 16 TL ${rows.map((row) => `(${ascii(row)}) '`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = Buffer.byteLength(pdf);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

export const sendPdf = (response: ServerResponse, invoice: Invoice) => send(response, 200, 'application/pdf', invoicePdf(invoice), { 'content-disposition': `inline; filename="${invoice.number ?? invoice.id}.pdf"` });
