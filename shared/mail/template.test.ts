import { describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_BODY, DEFAULT_MAIL_SUBJECT, renderMailSubject, renderMailTemplate, runResultText, SAMPLE_MAIL_VALUES } from './template.ts';

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
    // What the dropped blocks leave behind closes up: one blank line between paragraphs, none at the ends.
    expect(body).toBe('Hola:\n\nTe enviamos el resultado de Validar identificadores del 02/03/2026 10:05.\n\nUn saludo,\nAsesoría Ejemplo');
    expect(renderMailTemplate('\n\n[[IF ARCHIVOS]]x[[/IF]]\nHola\n \n\t\n\nAdiós\n\n', { ...SAMPLE_MAIL_VALUES, files: [] }, now)).toBe('Hola\n\nAdiós');
  });

  it("writes [[RESULTADO]] from the run's figures, in the preview's words", () => {
    expect(SAMPLE_MAIL_VALUES.result).toBe('Completado: 1.250 filas comprobadas, 3 con errores. Coste: 13 slans');
    const success = { result: 'Success', message: null, checked: 5, successful: 0, charged: 1 };
    expect(runResultText(success)).toBe('Completado: 5 filas comprobadas, 5 con errores. Coste: 1 slan');
    expect(runResultText({ ...success, checked: 1, successful: 1, charged: 0 })).toBe('Completado: 1 fila comprobada, ninguna con errores');
    expect(runResultText({ ...success, checked: 12000, successful: 11999, charged: 120 })).toBe('Completado: 12.000 filas comprobadas, 1 con error. Coste: 120 slans');
    expect(runResultText({ ...success, checked: 0, successful: 0, charged: 0 })).toBe('Completado');
    expect(runResultText({ result: 'WrongInput', message: 'Ninguna de las columnas elegidas está en la hoja «Plantilla».', checked: 0, successful: 0, charged: 0 })).toBe(
      'Entradas incorrectas: Ninguna de las columnas elegidas está en la hoja «Plantilla»',
    );
  });

  it('keeps a subject on one line whatever a value holds', () => {
    expect(renderMailSubject('[[ROBOT]]', { ...SAMPLE_MAIL_VALUES, robot: 'A\r\nBcc: x@y.es' }, now)).toBe('A Bcc: x@y.es');
  });
});
