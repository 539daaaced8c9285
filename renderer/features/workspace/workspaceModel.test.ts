import { describe, expect, it } from 'vitest';
import { certificateMetadataSchema } from '#shared/certificates/certificate.ts';
import { elena, empresa, expiring, machine, oficina, portatil, synced, LOCAL_HASH } from './testData.ts';
import { countByThreshold, groupMachines, machineConnection, matchingCertificates, nextSyncedSet, parseCccLines, toCertificateMetadata } from './workspaceModel.ts';

describe('toCertificateMetadata', () => {
  it('keeps exactly what the server accepts: no location, no holderNif, nothing added', () => {
    const withExtra = { ...empresa, privateKey: 'secreto' } as typeof empresa;
    const metadata = toCertificateMetadata(withExtra);
    expect(Object.keys(metadata).sort()).toEqual(Object.keys(certificateMetadataSchema.shape).sort());
    expect(certificateMetadataSchema.safeParse(metadata).success).toBe(true);
    expect(metadata).not.toHaveProperty('location');
    expect(metadata).not.toHaveProperty('holderNif');
  });
});

describe('nextSyncedSet', () => {
  const here = { _id: 'm', name: 'Este PC' };

  it('adds the chosen ones to what is already synced, once each', () => {
    const set = nextSyncedSet([synced(elena, here)], [elena, empresa], 'add');
    expect(set.map((item) => item.commonName)).toEqual([elena.commonName, empresa.commonName]);
    for (const item of set) expect(certificateMetadataSchema.safeParse(item).success).toBe(true);
  });

  it('removes the chosen ones and keeps synced ones this PC did not list this time', () => {
    const gone = synced({ ...empresa, fingerprint: 'f'.repeat(64), commonName: 'YA NO ESTÁ' }, here);
    const set = nextSyncedSet([synced(elena, here), gone], [elena], 'remove');
    expect(set.map((item) => item.commonName)).toEqual(['YA NO ESTÁ']);
  });
});

describe('groupMachines', () => {
  it('puts this PC apart, then mine, then the firm’s shared ones', () => {
    const thisPc = machine({ _id: 'local', savedAs: 'Este PC', machineHashCode: LOCAL_HASH });
    const groups = groupMachines([oficina, portatil, thisPc], LOCAL_HASH);
    expect(groups.local).toBe(thisPc);
    expect(groups.mine).toEqual([portatil]);
    expect(groups.shared).toEqual([oficina]);
  });

  it('has no local machine without a hash (web mode)', () => {
    expect(groupMachines([portatil], null).local).toBeUndefined();
  });
});

describe('matchingCertificates', () => {
  it('matches device name plus certificate name, ignoring case and spaces', () => {
    expect(matchingCertificates([elena, empresa], 'PC Oficina', 'garcía')).toEqual([]);
    expect(matchingCertificates([elena, empresa], 'PC Oficina', 'pruebas garcia')).toEqual([elena]);
    expect(matchingCertificates([elena, empresa], 'PC Oficina', 'pcoficina')).toEqual([elena, empresa]);
    expect(matchingCertificates(oficina.certificates, oficina.savedAs, 'sociedad demo')).toHaveLength(1);
  });
});

describe('countByThreshold', () => {
  it('counts in the radar order and leaves out empty thresholds', () => {
    const items = [
      expiring({ commonName: 'A', daysLeft: 45, threshold: 60 }),
      expiring({ commonName: 'B', daysLeft: -5, threshold: 0 }),
      expiring({ commonName: 'C', daysLeft: 3, threshold: 7 }),
      expiring({ commonName: 'D', daysLeft: 5, threshold: 7 }),
    ];
    expect(countByThreshold(items)).toEqual([
      { threshold: 0, count: 1 },
      { threshold: 7, count: 2 },
      { threshold: 60, count: 1 },
    ]);
  });
});

describe('parseCccLines', () => {
  it('splits on lines and commas and drops blanks', () => {
    expect(parseCccLines('28 123456742\n\n 28123456742 , 1\n')).toEqual(['28 123456742', '28123456742', '1']);
  });
});

describe('machineConnection', () => {
  it('is online while its desktop calls, offline since it last did once linked, unlinked before (or unknown)', () => {
    expect(machineConnection({ ...portatil, linked: true, online: true })).toEqual({ tone: 'online', since: null });
    expect(machineConnection({ ...portatil, linked: true, online: false, lastSeenAt: '2025-07-14T07:05:00.000Z' })).toEqual({ tone: 'offline', since: '2025-07-14T07:05:00.000Z' });
    expect(machineConnection({ ...portatil, linked: true, online: false, lastSeenAt: null })).toEqual({ tone: 'offline', since: null });
    expect(machineConnection(portatil)).toEqual({ tone: 'unlinked', since: null });
    expect(machineConnection(undefined)).toEqual({ tone: 'unlinked', since: null });
  });
});
