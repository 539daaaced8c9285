import { describe, expect, it } from 'vitest';
import { parseMacro } from '#shared/macros/definition.ts';
import { recordingName, recordingToMacro, recordingToSteps, type RecordedAction } from './recording-to-steps.ts';

const START = 'http://127.0.0.1:4000/';
const link = (name: string) => `internal:role=link[name="${name}"i]`;
const textbox = (name: string) => `internal:role=textbox[name="${name}"i]`;

/** What Playwright 1.65's recorder sent for a login sent with Enter (recorder.test.ts records it live), the page snapshots left out. */
const LOGIN: RecordedAction[] = [
  { name: 'openPage' },
  { name: 'navigate', url: START },
  { name: 'click', selector: link('Iniciar sesión'), clickCount: 1, modifiers: 0 },
  { name: 'click', selector: textbox('Usuario'), clickCount: 1, modifiers: 0 },
  { name: 'fill', selector: textbox('Usuario'), text: 'gestor' },
  { name: 'click', selector: textbox('Contraseña'), clickCount: 1, modifiers: 0 },
  { name: 'fill', selector: textbox('Contraseña'), secretRef: 'sec_abcdefgh12345678' },
  { name: 'press', selector: textbox('Contraseña'), key: 'Enter', modifiers: 0 },
  { name: 'click', selector: 'internal:role=button[name="Entrar"i]', clickCount: 0, modifiers: 0 },
];

describe('a recording as macro steps', () => {
  it('a login sent with Enter: the first navigation is the start, clicks into fields and Enter\'s implicit click are dropped', () => {
    expect(recordingToSteps(LOGIN, START)).toEqual({
      inputs: [],
      steps: [
        { id: 'p1', type: 'click', target: link('Iniciar sesión') },
        { id: 'p2', type: 'fill', target: textbox('Usuario'), value: { kind: 'text', text: 'gestor' } },
        { id: 'p3', type: 'fill', target: textbox('Contraseña'), value: { kind: 'secret', ref: 'sec_abcdefgh12345678' } },
        { id: 'p4', type: 'press', target: textbox('Contraseña'), key: 'Enter' },
      ],
    });
  });

  it('a real click on the button after Enter is kept (it had a mouse: clickCount 1)', () => {
    const steps = recordingToSteps([...LOGIN.slice(0, -1), { name: 'click', selector: 'internal:role=button[name="Entrar"i]', clickCount: 1 }], START).steps;
    expect(steps.at(-1)).toEqual({ id: 'p5', type: 'click', target: 'internal:role=button[name="Entrar"i]' });
  });

  it('select (by its label when known), check and uncheck, a later navigation, keys with modifiers, double clicks', () => {
    const { steps } = recordingToSteps([
      { name: 'navigate', url: START },
      { name: 'select', selector: 'internal:label="Contrato"i', options: ['401'], optionLabels: ['Temporal'] },
      { name: 'select', selector: 'internal:label="Tipo"i', options: ['b'] },
      { name: 'check', selector: 'internal:role=checkbox[name="Acepto"i]' },
      { name: 'uncheck', selector: 'internal:role=checkbox[name="Jornada completa"i]' },
      { name: 'navigate', url: 'http://127.0.0.1:4000/alta' },
      { name: 'press', selector: textbox('NIF'), key: 'a', modifiers: 2 },
      { name: 'press', selector: textbox('NIF'), key: 'Shift', modifiers: 8 },
      { name: 'click', selector: 'internal:text="Fila 1"i', clickCount: 2 },
      { name: 'click', selector: 'html', clickCount: 1 },
      { name: 'closePage' },
    ], START);
    expect(steps).toEqual([
      { id: 'p1', type: 'select', target: 'internal:label="Contrato"i', value: { kind: 'text', text: 'Temporal' } },
      { id: 'p2', type: 'select', target: 'internal:label="Tipo"i', value: { kind: 'text', text: 'b' } },
      { id: 'p3', type: 'check', target: 'internal:role=checkbox[name="Acepto"i]', checked: true },
      { id: 'p4', type: 'check', target: 'internal:role=checkbox[name="Jornada completa"i]', checked: false },
      { id: 'p5', type: 'goto', url: { kind: 'text', text: 'http://127.0.0.1:4000/alta' } },
      { id: 'p6', type: 'press', target: textbox('NIF'), key: 'Control+a' },
      { id: 'p7', type: 'click', target: 'internal:text="Fila 1"i', count: 2 },
    ]);
  });

  it('a file input (fill of C:\\fakepath) is an upload with a new file input; a click with a download signal is a download', () => {
    const { steps, inputs } = recordingToSteps([
      { name: 'fill', selector: 'internal:role=button[name="Fichero"i]', text: 'C:\\fakepath\\nominas.txt' },
      { name: 'fill', selector: 'internal:role=button[name="Anexo"i]', text: 'C:\\fakepath\\anexo.pdf' },
      { name: 'click', selector: link('Descargar informe'), clickCount: 1, download: true },
    ], START);
    expect(steps).toEqual([
      { id: 'p1', type: 'upload', target: 'internal:role=button[name="Fichero"i]', input: 'fichero' },
      { id: 'p2', type: 'upload', target: 'internal:role=button[name="Anexo"i]', input: 'fichero_2' },
      { id: 'p3', type: 'download', target: link('Descargar informe') },
    ]);
    expect(inputs.map(({ key, kind, help }) => ({ key, kind, help }))).toEqual([
      { key: 'fichero', kind: 'file', help: 'Al grabar se subió «nominas.txt»' },
      { key: 'fichero_2', kind: 'file', help: 'Al grabar se subió «anexo.pdf»' },
    ]);
  });

  it('fills of one field in a row are one fill of the last text', () => {
    const { steps } = recordingToSteps([
      { name: 'fill', selector: textbox('NIF'), text: '1234' },
      { name: 'fill', selector: textbox('NIF'), text: '12345678Z' },
    ], START);
    expect(steps).toEqual([{ id: 'p1', type: 'fill', target: textbox('NIF'), value: { kind: 'text', text: '12345678Z' } }]);
  });
});

describe('a recording as a macro draft', () => {
  const at = new Date(2026, 11, 2, 9, 5);

  it('is named after its time, charged per run, and passes parseMacro', () => {
    const macro = recordingToMacro(LOGIN, { startUrl: START, withCertificate: false, at });
    expect(macro).toMatchObject({ name: 'Grabación 02/12/2026 09:05', startUrl: START, charge: { per: 'run', slans: 1 }, outputFileName: 'resultado.xlsx', timeLimitSeconds: 600, inputs: [] });
    expect(macro.certificate).toBeUndefined();
    expect(parseMacro(macro)).toEqual({ ok: true, macro });
    expect(recordingName(at)).toBe('Grabación 02/12/2026 09:05');
  });

  it('with a certificate on an https start: a Certificate input presented to the start\'s origin', () => {
    const macro = recordingToMacro([{ name: 'click', selector: link('Acceder con certificado'), clickCount: 1 }], { startUrl: 'https://sede.example.es/inicio', withCertificate: true, at });
    expect(macro.certificate).toEqual({ input: 'certificado', origins: ['https://sede.example.es'] });
    expect(macro.inputs[0]).toMatchObject({ key: 'certificado', kind: 'certificate' });
    expect(parseMacro(macro).ok).toBe(true);
  });

  it('nothing recorded still gives a valid draft (it opens the page)', () => {
    const macro = recordingToMacro([{ name: 'openPage' }, { name: 'navigate', url: START }], { startUrl: START, withCertificate: false, at });
    expect(macro.steps).toEqual([{ id: 'p1', type: 'waitFor', target: 'body', state: 'visible', note: 'Abrir la página' }]);
    expect(parseMacro(macro).ok).toBe(true);
  });
});
