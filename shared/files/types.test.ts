import { describe, expect, it } from 'vitest';
import { ALLOWED_EXTENSIONS, DEFAULT_ACCEPT, fileExtension, filterAcceptedFiles, isAcceptedFile } from './types.ts';

describe('allowed types', () => {
  it('lists the spec types', () => {
    expect([...ALLOWED_EXTENSIONS].sort()).toEqual([
      'bmp', 'csv', 'doc', 'docx', 'gif', 'jpeg', 'jpg', 'msj', 'odp', 'ods', 'odt', 'pdf', 'png', 'ppt', 'pptx',
      'rtf', 'svg', 'tif', 'tiff', 'txt', 'webp', 'xls', 'xlsx',
    ]);
    expect(DEFAULT_ACCEPT.startsWith('.txt,.msj,')).toBe(true);
  });

  it('reads the extension case-insensitively and ignores dot files', () => {
    expect(fileExtension('Nómina.PDF')).toBe('pdf');
    expect(fileExtension('.env')).toBe('');
    expect(fileExtension('sin-extension')).toBe('');
  });
});

describe('isAcceptedFile', () => {
  it('takes allowed types and refuses the rest', () => {
    expect(isAcceptedFile({ name: 'fie.txt' })).toBe(true);
    expect(isAcceptedFile({ name: 'virus.exe' })).toBe(false);
    expect(isAcceptedFile({ name: 'README' })).toBe(false);
  });

  it('filters further by an accept list of extensions, wildcards and MIME types', () => {
    expect(isAcceptedFile({ name: 'a.pdf' }, '.pdf, .docx')).toBe(true);
    expect(isAcceptedFile({ name: 'a.png' }, '.pdf, .docx')).toBe(false);
    expect(isAcceptedFile({ name: 'a.png', type: 'image/png' }, 'image/*')).toBe(true);
    expect(isAcceptedFile({ name: 'a.jpg' }, 'image/*')).toBe(true);
    expect(isAcceptedFile({ name: 'a.pdf', type: 'application/pdf' }, 'image/*')).toBe(false);
    expect(isAcceptedFile({ name: 'a.pdf' }, 'application/pdf')).toBe(true);
  });

  it('still refuses a disallowed type the accept list would take', () => {
    expect(isAcceptedFile({ name: 'a.exe', type: 'application/x-msdownload' }, 'application/*')).toBe(false);
  });

  it('filters a list', () => {
    const files = [{ name: 'a.xlsx' }, { name: 'b.zip' }, { name: 'c.xls' }];
    expect(filterAcceptedFiles(files, '.xls,.xlsx').map((file) => file.name)).toEqual(['a.xlsx', 'c.xls']);
  });
});
