import { describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_BODY, DEFAULT_MAIL_SUBJECT, renderMailSubject, renderMailTemplate, SAMPLE_MAIL_VALUES } from './template.ts';

// 2026-03-02 10:05:09 in Madrid (UTC+1 in winter).
const now = new Date('2026-03-02T09:05:09Z');

describe('mail templates', () => {
  it('fills the run placeholders and the Madrid stamps', () => {
    expect(renderMailSubject(DEFAULT_MAIL_SUBJECT, SAMPLE_MAIL_VALUES, now)).toBe('Resultado de Validar identificadores del 02/03/2026');
    const body = renderMailTemplate(DEFAULT_MAIL_BODY, SAMPLE_MAIL_VALUES, now);
    expect(body).toContain('Te enviamos el resultado de Validar identificadores del 02/03/2026 10:05.');
    expect(body).toContain('Archivos adjuntos: trabajadores-validado.xlsx');
    expect(body).toContain('Asesoría Ejemplo');
  });

  it('drops the IF blocks of what the run did not have', () => {
    const body = renderMailTemplate(DEFAULT_MAIL_BODY, { ...SAMPLE_MAIL_VALUES, result: '', files: [] }, now);
    expect(body).not.toContain('Resultado:');
    expect(body).not.toContain('Archivos adjuntos');
  });

  it('keeps a subject on one line whatever a value holds', () => {
    expect(renderMailSubject('[[ROBOT]]', { ...SAMPLE_MAIL_VALUES, robot: 'A\r\nBcc: x@y.es' }, now)).toBe('A Bcc: x@y.es');
  });
});
