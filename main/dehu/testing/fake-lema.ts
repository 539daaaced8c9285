import type { LemaEnvio, LemaRealizada } from '#shared/api/notifications.ts';
import type { LemaAccess, LemaClient, LemaClientOptions, LemaDocument, LemaPeriod } from '../types.ts';
import { LemaError } from '../types.ts';

export interface FakeMailbox {
  pendientes: LemaEnvio[];
  realizadas: LemaRealizada[];
  /** Localiza answers this failure instead. */
  failure?: LemaError;
}

export interface FakeLema {
  /** The factory createDehuDesktop takes: one client per certificate, told apart by its pfx (fake pfx = the fingerprint). */
  factory: (options: LemaClientOptions) => LemaClient;
  /** Every call as 'operation fingerprint [identificador]', in order. */
  calls: string[];
  periods: LemaPeriod[];
  options: LemaClientOptions[];
}

const pdf = (name: string): LemaDocument => ({ name, mimeType: 'application/pdf', bytes: new TextEncoder().encode(`%PDF-1.4 ${name}`) });

/** LEMA for tests: each mailbox keyed by the certificate's fingerprint (the fake store's pfx holds it). */
export function fakeLema(mailboxes: Record<string, FakeMailbox>, access: Partial<LemaAccess> = {}): FakeLema {
  const fake: FakeLema = { factory: undefined as unknown as FakeLema['factory'], calls: [], periods: [], options: [] };
  fake.factory = (options) => {
    fake.options.push(options);
    const fingerprint = options.pfx.toString('utf8');
    const mailbox = (): FakeMailbox => {
      const found = mailboxes[fingerprint];
      if (!found) throw new LemaError('4103 - El certificado no es un destinatario autorizado', '4103');
      if (found.failure) throw found.failure;
      return found;
    };
    return {
      async localiza(period) {
        fake.calls.push(`localiza ${fingerprint}`);
        fake.periods.push(period);
        return mailbox().pendientes;
      },
      async localizaRealizadas(period) {
        fake.calls.push(`localizaRealizadas ${fingerprint}`);
        fake.periods.push(period);
        return mailbox().realizadas;
      },
      async peticionAcceso(request) {
        fake.calls.push(`peticionAcceso ${fingerprint} ${request.identificador} ${request.nifReceptor} ${request.nombreReceptor}`);
        return {
          fechaEvento: '2026-11-26T10:15:00+01:00',
          documento: pdf('notificacion.pdf'),
          anexos: [{ name: 'anexo-1.pdf', referencia: 'UkVGMQ==' }, { name: 'anexo-2.pdf', referencia: 'UkVGMg==' }],
          csvResguardo: 'CSV-123',
          referenciaPdfAcuse: 'QUNVU0U=',
          ...access,
        };
      },
      async consultaAnexos(request) {
        fake.calls.push(`consultaAnexos ${fingerprint} ${request.identificador} ${request.referencia}`);
        return pdf(request.referencia === 'UkVGMQ==' ? 'anexo-1.pdf' : 'anexo-2.pdf');
      },
      async consultaAcusePdf(request) {
        fake.calls.push(`consultaAcusePdf ${fingerprint} ${request.identificador}`);
        return pdf('acuse.pdf');
      },
    };
  };
  return fake;
}

export function lemaEnvio(identificador: string, overrides: Partial<LemaEnvio> = {}): LemaEnvio {
  return {
    identificador,
    codigoOrigen: 1,
    concepto: `Notificación ${identificador}`,
    descripcion: null,
    organismoEmisor: { codigo: 'E00003901', nombre: 'Agencia Estatal de Administración Tributaria' },
    organismoEmisorRaiz: null,
    fechaPuestaDisposicion: '2026-11-20T10:00:00+01:00',
    tipoEnvio: 2,
    vinculo: 1,
    titular: { nombre: 'EMPRESA DE PRUEBA SL', nif: 'B12345678' },
    metadatosPublicos: null,
    codigoProcedimiento: null,
    ...overrides,
  };
}

export function lemaRealizada(identificador: string): LemaRealizada {
  return { ...lemaEnvio(identificador), estado: 'ACEPTADA', receptor: { nombre: 'EMPRESA DE PRUEBA SL', nif: 'B12345678' }, csvResguardo: null };
}
