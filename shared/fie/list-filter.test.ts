import { describe, expect, it } from 'vitest';
import type { FieDocumentView, FieEntryView } from '../api/fie.ts';
import { entryDate, entrySearchText, fieEntryFilter, filterFieDocuments, foldText } from './list-filter.ts';

function entry(overrides: Partial<FieEntryView>): FieEntryView {
  return {
    _id: 'e', fieId: 'd', type: 'baja', typeLabel: '', disabled: false, fullname: 'MARÍA PEÑA', nif: '12345678Z', companyName: 'ASESORÍA NÚÑEZ SL',
    ccc: null, formattedCcc: null, registrationDate: '2025-01-15', leaveStart: '2025-01-10', leaveEnd: null, duration: null, shortDuration: false,
    isCanceled: false, contingency: null, incidence: null, a3sync: 'pending', a3SyncedAt: null, lastError: null, confirmations: [], ...overrides,
  };
}

function document(id: string, entries: FieEntryView[]): FieDocumentView {
  return { _id: id, date: '2025-01-15', registryDate: null, fileName: `${id}.fie`, source: 'text', version: 'FIE4', createdAt: '', entryCount: entries.length, entries };
}

describe('FIE list filters', () => {
  it('folds case, accents and runs of spaces, and searches name, NIF and company', () => {
    expect(foldText('  Peña   NÚÑEZ ')).toBe('pena nunez');
    expect(entrySearchText('MARÍA PEÑA', null, 'TALLERES Ñ')).toBe('maria pena talleres n');
    const matches = fieEntryFilter({ q: 'nunez' });
    expect(matches(entry({}))).toBe(true);
    expect(fieEntryFilter({ q: '12345678z' })(entry({}))).toBe(true);
    expect(fieEntryFilter({ q: 'garcía' })(entry({}))).toBe(false);
  });

  it('compares dates on the leave start, else the registration date, both bounds included', () => {
    expect(entryDate(entry({}))).toBe('2025-01-10');
    expect(entryDate(entry({ leaveStart: null }))).toBe('2025-01-15');
    expect(fieEntryFilter({ from: '2025-01-10', to: '2025-01-10' })(entry({}))).toBe(true);
    expect(fieEntryFilter({ from: '2025-01-11' })(entry({}))).toBe(false);
    expect(fieEntryFilter({ to: '2025-01-09' })(entry({}))).toBe(false);
    expect(fieEntryFilter({ from: '2025-01-01' })(entry({ leaveStart: null, registrationDate: null }))).toBe(false);
  });

  it('combines type and A3 state, and keeps only documents left with entries', () => {
    const a = document('a', [entry({ _id: '1' }), entry({ _id: '2', type: 'alta', a3sync: 'synced' })]);
    const b = document('b', [entry({ _id: '3', type: 'dop', a3sync: 'excluded' })]);
    const empty = document('c', []);
    expect(filterFieDocuments([a, b, empty], {})).toEqual([a, b, empty]);
    const altas = filterFieDocuments([a, b, empty], { type: 'alta,dop', a3: 'synced' });
    expect(altas.map((doc) => [doc._id, doc.entries.map((item) => item._id), doc.entryCount])).toEqual([['a', ['2'], 2]]);
    // A document whose entries all match is handed back as it is.
    expect(filterFieDocuments([b], { type: 'dop' })[0]).toBe(b);
  });
});
