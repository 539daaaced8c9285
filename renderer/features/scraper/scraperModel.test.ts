import { describe, expect, it } from 'vitest';
import { parseMacro } from '#shared/macros/definition.ts';
import { hostOf, outputNameFor, scrapeMacro } from './scraperModel.ts';

let next = 0;
const newId = () => `s${(next += 1)}`;

describe('scraperModel', () => {
  it('saves a table behind a certificate as goto + extractTable with a Certificate input for the page\'s origin', () => {
    const macro = scrapeMacro({
      url: 'https://sede.example:8443/consulta?x=1', name: 'Consulta', outputFileName: 'consulta.xlsx', columns: [], withCertificate: true, paginate: null,
      candidate: { kind: 'table', target: 'internal:role=table', header: ['A'], rows: [['1']], total: 1 },
    }, newId);
    expect(parseMacro(macro)).toEqual({ ok: true, macro });
    expect(macro.certificate).toEqual({ input: 'certificado', origins: ['https://sede.example:8443'] });
    expect(macro.inputs).toEqual([{ key: 'certificado', label: 'Certificado', kind: 'certificate', required: true }]);
    expect(macro.steps.map((step) => step.type)).toEqual(['goto', 'extractTable']);
  });

  it('names the output from the robot and the default from the host', () => {
    expect(outputNameFor('Datos de www.seg-social.es')).toBe('datos-de-www-seg-social-es.xlsx');
    expect(outputNameFor('¡!')).toBe('datos.xlsx');
    expect(hostOf('https://a.example/x')).toBe('a.example');
  });
});
