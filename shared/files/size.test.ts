import { describe, expect, it } from 'vitest';
import { checkUploadSize, formatBytes } from './size.ts';

describe('formatBytes', () => {
  it('uses base-1000 units and the es-ES decimal comma', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1500)).toBe('1,5 kB');
    expect(formatBytes(100_000_000)).toBe('100 MB');
    expect(formatBytes(120_000_000)).toBe('120 MB');
    expect(formatBytes(2_345_000_000)).toBe('2,3 GB');
  });

  it('moves up a unit when rounding reaches 1000', () => {
    expect(formatBytes(999_960)).toBe('1 MB');
  });
});

describe('checkUploadSize', () => {
  const files = [{ size: 70_000_000 }, { size: 50_000_000 }];

  it('reports the actual and limit sizes when the total is over the limit', () => {
    expect(checkUploadSize(files)).toEqual({
      code: 'filesizeexceeded', actualBytes: 120_000_000, limitBytes: 100_000_000, actual: '120 MB', limit: '100 MB',
    });
  });

  it('allows exactly the limit', () => {
    expect(checkUploadSize([{ size: 100_000_000 }])).toBeNull();
  });

  it('honours a custom limit', () => {
    expect(checkUploadSize([{ size: 2_000 }], { maxSize: 1_000 })?.limit).toBe('1 kB');
  });

  it('does not check when embedded or when checking is off', () => {
    expect(checkUploadSize(files, { embedded: true })).toBeNull();
    expect(checkUploadSize(files, { check: false })).toBeNull();
  });
});
