import type { RedAltaRecord, RedResult } from '#shared/api/altas.ts';
import type { RedRegistrar } from '../types.ts';

/** Test-only: a RedRegistrar that registers every record but those of `refusedNafs` (a fatal #DIL answer). */
export interface FakeRegistrar extends RedRegistrar {
  calls: { kind: 'register' | 'afi'; submissionIds: string[]; certificate: string | null }[];
}

export const REFUSED_MESSAGE = '#DIL 3251: EL TRABAJADOR YA FIGURA EN ALTA EN ESTE CCC';

export function fakeRegistrar(refusedNafs: readonly string[] = [], failWith?: Error): FakeRegistrar {
  const calls: FakeRegistrar['calls'] = [];
  const naf = (record: RedAltaRecord) => `${record.nafProvince}${record.nafNumber}`;
  return {
    calls,
    async register(records, certificate, { log }) {
      calls.push({ kind: 'register', submissionIds: records.map((record) => record.submissionId), certificate });
      if (failWith) throw failWith;
      return records.map((record): RedResult => {
        log('info', `ATR01: ${record.worker}`);
        return refusedNafs.includes(naf(record))
          ? { submissionId: record.submissionId, state: 'error', message: REFUSED_MESSAGE }
          : { submissionId: record.submissionId, state: 'registered', message: 'Alta registrada en RED' };
      });
    },
    async writeAfi(records) {
      calls.push({ kind: 'afi', submissionIds: records.map((record) => record.submissionId), certificate: null });
      if (failWith) throw failWith;
      const file = 'AFI_20261126_1.AFI';
      return { file, results: records.map((record): RedResult => ({ submissionId: record.submissionId, state: 'afi-written', message: `Escrito en ${file}`, afiFile: file })) };
    },
  };
}
