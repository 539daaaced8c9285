import { afterEach, describe, expect, it, vi } from 'vitest';
import { XLSX_MIME, base64ToBytes, saveBytes } from './saveFile.ts';

afterEach(() => vi.restoreAllMocks());

describe('base64ToBytes', () => {
  it('decodes binary content byte for byte', () => {
    // 'PK\x03\x04' opens every .xlsx (a zip); 0xff checks bytes above 127 survive.
    expect([...base64ToBytes(btoa('PK\x03\x04\xff'))]).toEqual([0x50, 0x4b, 0x03, 0x04, 0xff]);
  });
});

describe('saveBytes', () => {
  it('downloads a blob of the bytes under the given name', async () => {
    const created: Blob[] = [];
    Object.assign(URL, { createObjectURL: (blob: Blob) => (created.push(blob), 'blob:informe'), revokeObjectURL: vi.fn() });
    const clicks: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download });
    });
    saveBytes(base64ToBytes(btoa('PK')), 'Historial de robots 14-07-2025.xlsx', XLSX_MIME);
    expect(clicks).toEqual([{ href: 'blob:informe', download: 'Historial de robots 14-07-2025.xlsx' }]);
    expect(created[0]?.type).toBe(XLSX_MIME);
    expect(await created[0]?.text()).toBe('PK');
    expect(document.querySelector('a[download]')).toBeNull();
  });
});
