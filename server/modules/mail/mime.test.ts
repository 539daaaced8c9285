import { createHash, randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildMime } from './mime.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('buildMime', () => {
  it('builds a message that parses back with the UTF-8 subject, names and a 10 MB attachment byte for byte', async () => {
    const big = randomBytes(10 * 1024 * 1024);
    const small = Buffer.from('NIF;Resultado\n12345678Z;OK\n', 'utf8');
    const raw = await buildMime({
      from: 'asesoria@example.es',
      senderName: 'Asesoría Muñoz',
      to: ['cliente@example.com', 'otra@example.com'],
      replyTo: 'respuestas@example.es',
      subject: 'Nóminas de marzo — Muñoz ✓',
      body: 'Hola:\n\nAdjuntamos las nóminas de marzo.\n\nUn saludo,\nAsesoría Muñoz',
      attachments: [
        { name: 'Nóminas de marzo — Muñoz.xlsx', content: big },
        { name: 'resumen.csv', content: small },
      ],
    });
    // The header is 7-bit: the subject travels as encoded-words.
    const header = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('latin1');
    expect(header).toMatch(/^Subject: =\?UTF-8\?/m);
    expect([...header].every((char) => char.charCodeAt(0) < 128)).toBe(true);

    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Nóminas de marzo — Muñoz ✓');
    expect(parsed.from?.value).toEqual([{ name: 'Asesoría Muñoz', address: 'asesoria@example.es' }]);
    expect(parsed.replyTo?.value[0]?.address).toBe('respuestas@example.es');
    const to = Array.isArray(parsed.to) ? parsed.to.flatMap((item) => item.value) : (parsed.to?.value ?? []);
    expect(to.map((address) => address.address)).toEqual(['cliente@example.com', 'otra@example.com']);
    expect(parsed.text?.trim()).toBe('Hola:\n\nAdjuntamos las nóminas de marzo.\n\nUn saludo,\nAsesoría Muñoz');
    expect(parsed.attachments.map((file) => file.filename)).toEqual(['Nóminas de marzo — Muñoz.xlsx', 'resumen.csv']);
    expect(sha256(parsed.attachments[0]!.content)).toBe(sha256(big));
    expect(sha256(parsed.attachments[1]!.content)).toBe(sha256(small));
  });

  it('puts no Bcc and no Reply-To when there is none, and the bare address without a sender name', async () => {
    const raw = (await buildMime({ from: 'a@example.es', senderName: null, to: ['b@example.com'], replyTo: null, subject: 'Hola', body: 'x', attachments: [] })).toString('utf8');
    expect(raw).toMatch(/^From: a@example\.es\r$/m);
    expect(raw).not.toMatch(/^Reply-To:/im);
    expect(raw).not.toMatch(/^Bcc:/im);
  });
});
