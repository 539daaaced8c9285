import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCertificate, privateKeyPem, testAuthority, type TestCertificate } from '../../main/certificates/testing/spanish-certificates.ts';
import { SERVER_NAME, portalOptions, serverAuthority } from '../portal/test-certificates.ts';
import { ATR01_PATH, BUTTONS } from './pages.ts';
import { startStandinRedOnline, type StandinRedOnline } from './red-online.ts';
import { NAF_ALWAYS_IN_ALTA, nafHasValidControl } from './rules.ts';

const holder = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
const stranger = createTestCertificate({ nif: '12345678Z', givenName: 'LUIS', surnames: 'PEREZ GIL', keyType: 'ec' });
/** 2026-12-01 10:00 in Madrid. */
const NOW = new Date('2026-12-01T09:00:00Z');
const CCC = '28255627528';
const OTHER_CCC = '28000000091';

/** A NAF of province 28 with its control digits (research §6). */
function naf(number: number): string {
  const base = number < 10_000_000 ? number + 28 * 10_000_000 : Number(`28${String(number).padStart(8, '0')}`);
  return `28${String(number).padStart(8, '0')}${String(base % 97).padStart(2, '0')}`;
}

interface Reply {
  status: number;
  text: string;
  cookie: string | undefined;
}

let red: StandinRedOnline;

beforeAll(async () => {
  red = await startStandinRedOnline({
    ...portalOptions(),
    authorisedCccs: { '78816596N': [CCC, OTHER_CCC] },
    alreadyInAlta: [naf(11_111_111)],
    now: () => NOW,
  });
});
afterAll(async () => {
  await red.close();
});

function call(method: 'GET' | 'POST', certificate: TestCertificate | null, options: { cookie?: string; form?: Record<string, string>; path?: string } = {}): Promise<Reply> {
  const body = options.form ? new URLSearchParams(options.form).toString() : '';
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: new URL(red.url).port,
        method,
        path: options.path ?? ATR01_PATH,
        servername: SERVER_NAME,
        ca: serverAuthority().pem,
        agent: false,
        ...(certificate ? { cert: certificate.pem, key: privateKeyPem(certificate) } : {}),
        headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), cookie: setCookie[0]?.split(';')[0] });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const dilOf = (reply: Reply) => /<div id="DIL">([^<]*)<\/div>/.exec(reply.text)?.[1] ?? null;

interface Alta {
  naf: string;
  ccc?: string;
  ipf?: string;
  date?: [string, string, string];
  contract?: string;
  coefficient?: string;
}

/** Walks ATR01 as a browser would, pressing whatever button each page offers, and answers every #DIL seen. */
async function fileAlta(alta: Alta, certificate: TestCertificate = holder): Promise<{ dils: string[]; buttons: string[]; last: Reply }> {
  const opened = await call('GET', certificate);
  expect(opened.status).toBe(200);
  const cookie = opened.cookie!;
  const ccc = alta.ccc ?? CCC;
  const [day, month, year] = alta.date ?? ['01', '12', '2026'];
  const screen1 = {
    cbo_ListaAltasBajas: '0', txt_SDFPROAFI: alta.naf.slice(0, 2), txt_SDFCODAFI: alta.naf.slice(2), txt_SDFREGAFI_ayuda: '0111', txt_SDFTIPPFI_ayuda: '1',
    txt_SDFNUMPFI: alta.ipf ?? '012345678Z', txt_SDFTESCTACOT: ccc.slice(0, 2), txt_SDFCTACOT: ccc.slice(2), [BUTTONS.screen1]: 'Continuar',
  };
  const screen2 = {
    txt_SDFSITAFI_ayuda: '01', txt_SDFFREALDD: day, txt_SDFFREALMM: month, txt_SDFFREALAA: year, txt_SDFGRUCOT_ayuda: '05', txt_SDFTICO_ayuda: alta.contract ?? '100',
    txt_SDFCOEFCO_ayuda: alta.coefficient ?? '', txt_SDFCONVCOL_ayuda: '28000245011981', txt_SDFOCUPACION: '5120', [BUTTONS.screen2]: 'Continuar',
  };
  const dils: string[] = [];
  const buttons: string[] = [];
  let last = await call('POST', certificate, { cookie, form: screen1 });
  for (let step = 0; step < 8; step += 1) {
    const dilText = dilOf(last);
    if (dilText) dils.push(dilText);
    const button = /<input type="submit" id="(Sub\d+)"/.exec(last.text)?.[1];
    if (!button || (dilText && !/^(3408|9125|9086|0350) /.test(dilText))) break;
    buttons.push(button);
    last = await call('POST', certificate, { cookie, form: button === BUTTONS.screen2 ? screen2 : { [button]: 'Continuar' } });
  }
  return { dils, buttons, last };
}

describe('RED Online stand-in (ATR01)', () => {
  it('refuses a request without a client certificate, and one from an unknown CA, with a 403', async () => {
    const none = await call('GET', null);
    expect(none.status).toBe(403);
    expect(none.text).toContain('No se ha presentado ningún certificado.');
    expect(none.text).not.toContain('jacadaform');
    const fromUnknownCa = createTestCertificate({ nif: '00000000T', keyType: 'ec', issuer: testAuthority('AC Desconocida') });
    const untrusted = await call('GET', fromUnknownCa);
    expect(untrusted.status).toBe(403);
    expect(untrusted.text).toContain('El certificado no ha sido emitido por una autoridad de certificación reconocida.');
    expect(untrusted.text).not.toContain('jacadaform');
  });

  it('serves screen 1 with the Jacada field names', async () => {
    const page = await call('GET', holder);
    expect(page.text).toContain('<form name="jacadaform"');
    for (const name of ['cbo_ListaAltasBajas', 'txt_SDFPROAFI', 'txt_SDFCODAFI', 'txt_SDFREGAFI_ayuda', 'txt_SDFTIPPFI_ayuda', 'txt_SDFNUMPFI', 'txt_SDFTESCTACOT', 'txt_SDFCTACOT', BUTTONS.screen1]) {
      expect(page.text).toContain(`id="${name}"`);
    }
    expect(page.text).toContain('<option value="0" selected>Alta</option>');
  });

  it('admits a full-time alta: screen 1, screen 2, Confirmar, 0350 with the resolution, and keeps it', async () => {
    const worker = naf(20_000_001);
    const { dils, buttons, last } = await fileAlta({ naf: worker });
    expect(buttons).toEqual([BUTTONS.screen2, BUTTONS.confirm]);
    expect(dils).toEqual([`0350 ALTA ADMITIDA. NAF ${worker} CCC 0111 ${CCC} FECHA REAL 01/12/2026`]);
    expect(last.text).toContain('RESOLUCION SOBRE RECONOCIMIENTO DE ALTA');
    expect(red.registered().find((alta) => alta.naf === worker)).toMatchObject({ ccc: CCC, regimen: '0111', ipfNumber: '012345678Z', fechaReal: '2026-12-01', grupoCotizacion: '05', tipoContrato: '100', holderNif: '78816596N', convenio: '28000245011981', ocupacion: '5120' });
  });

  it('refuses a second alta of the same NAF in the same CCC (3012) and warns of pluriempleo in another CCC (3408)', async () => {
    const worker = naf(20_000_002);
    expect((await fileAlta({ naf: worker })).dils.at(-1)).toMatch(/^0350 /);
    const again = await fileAlta({ naf: worker });
    expect(again.dils).toEqual(['3012 EL TRABAJADOR YA FIGURA EN ALTA EN ESTE CODIGO DE CUENTA DE COTIZACION']);
    expect(again.buttons).toEqual([]);
    const elsewhere = await fileAlta({ naf: worker, ccc: OTHER_CCC });
    expect(elsewhere.buttons).toEqual([BUTTONS.screen2, BUTTONS.warning, BUTTONS.confirm]);
    expect(elsewhere.dils[0]).toMatch(/^3408 /);
    expect(elsewhere.dils.at(-1)).toMatch(/^0350 /);
  });

  it('always refuses NAF_ALWAYS_IN_ALTA and the NAFs of alreadyInAlta (3012)', async () => {
    expect(nafHasValidControl(NAF_ALWAYS_IN_ALTA)).toBe(true);
    expect((await fileAlta({ naf: NAF_ALWAYS_IN_ALTA })).dils).toEqual(['3012 EL TRABAJADOR YA FIGURA EN ALTA EN ESTE CODIGO DE CUENTA DE COTIZACION']);
    expect((await fileAlta({ naf: naf(11_111_111) })).dils[0]).toMatch(/^3012 /);
  });

  it('refuses a NAF with wrong control digits (1017), a short IPF (0101) and a CCC the holder may not use (0041)', async () => {
    const good = naf(20_000_003);
    const wrongControl = good.slice(0, 10) + String((Number(good.slice(10)) + 1) % 97).padStart(2, '0');
    expect((await fileAlta({ naf: wrongControl })).dils[0]).toMatch(/^1017 /);
    expect((await fileAlta({ naf: good, ipf: '12345678Z' })).dils[0]).toBe('0101 EL IDENTIFICADOR DE PERSONA FISICA DEBE TENER 10 CARACTERES');
    expect((await fileAlta({ naf: good, ccc: '08000000026' })).dils[0]).toMatch(/^0041 /);
    expect((await fileAlta({ naf: good }, stranger)).dils[0]).toMatch(/^0041 /);
    expect(red.registered().some((alta) => alta.naf === good)).toBe(false);
  });

  it('a fecha real in the past warns fuera de plazo (9086); more than 30 days back is fatal (3250)', async () => {
    const late = await fileAlta({ naf: naf(20_000_004), date: ['20', '11', '2026'] });
    expect(late.buttons).toEqual([BUTTONS.screen2, BUTTONS.warning, BUTTONS.confirm]);
    expect(late.dils).toEqual(['9086 ALTA PRESENTADA FUERA DE PLAZO', expect.stringMatching(/^0350 .*FECHA REAL 20\/11\/2026$/)]);
    const tooLate = await fileAlta({ naf: naf(20_000_005), date: ['31', '10', '2026'] });
    expect(tooLate.dils).toEqual(['3250 LA FECHA REAL NO PUEDE SER ANTERIOR EN MAS DE 30 DIAS A LA FECHA DE PRESENTACION']);
    expect((await fileAlta({ naf: naf(20_000_005), date: ['31', '02', '2027'] })).dils[0]).toMatch(/^0101 LA FECHA REAL/);
  });

  it('a part-time contract needs its coefficient (3307) and passes the coefficient warning page (9125, #Sub0600401054)', async () => {
    expect((await fileAlta({ naf: naf(20_000_006), contract: '200' })).dils[0]).toMatch(/^3307 /);
    const partTime = await fileAlta({ naf: naf(20_000_006), contract: '200', coefficient: '500' });
    expect(partTime.buttons).toEqual([BUTTONS.screen2, BUTTONS.partTimeWarning, BUTTONS.confirm]);
    expect(partTime.dils[0]).toBe('9125 REVISE EL CONTENIDO DEL COEFICIENTE A TIEMPO PARCIAL');
    expect(red.registered().find((alta) => alta.naf === naf(20_000_006))?.coeficienteParcialidad).toBe('500');
  });

  it('a button of another screen ends the transaction instead of skipping a step', async () => {
    const opened = await call('GET', holder);
    const skipped = await call('POST', holder, { cookie: opened.cookie!, form: { [BUTTONS.confirm]: 'Confirmar' } });
    expect(dilOf(skipped)).toMatch(/^0101 SECUENCIA DE PANTALLAS INCORRECTA/);
    const otherCertificate = await call('POST', stranger, { cookie: opened.cookie!, form: { [BUTTONS.screen1]: 'Continuar' } });
    expect(dilOf(otherCertificate)).toMatch(/^0101 LA SESION HA CADUCADO/);
  });
});
