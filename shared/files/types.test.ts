import { describe, expect, it } from 'vitest';
import { ALLOWED_EXTENSIONS, DEFAULT_ACCEPT, acceptedTypesText, claimedFileType, fileExtension, filterAcceptedFiles, isAcceptedFile } from './types.ts';

describe('allowed types', () => {
  it('lists the spec types', () => {
    expect([...ALLOWED_EXTENSIONS].sort()).toEqual([
      'bmp', 'csv', 'doc', 'docx', 'fie', 'gif', 'jpeg', 'jpg', 'msj', 'odp', 'ods', 'odt', 'pdf', 'png', 'ppt', 'pptx',
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

describe('claimedFileType', () => {
  it('is the allowed extension, fie for a name without one, and null for the rest', () => {
    expect(claimedFileType('Nómina.PDF')).toBe('pdf');
    expect(claimedFileType('parte.fie')).toBe('fie');
    expect(claimedFileType('FIE20250115')).toBe('fie');
    expect(claimedFileType('virus.exe')).toBeNull();
  });

  it('lists the accepted types for messages', () => {
    expect(acceptedTypesText()).toMatch(/^\.txt, \.msj, .*\.tif, \.fie \(o sin extensión, un FIE\)$/);
  });
});

describe('isAcceptedFile', () => {
  it('takes allowed types and refuses the rest', () => {
    expect(isAcceptedFile({ name: 'fie.txt' })).toBe(true);
    expect(isAcceptedFile({ name: 'virus.exe' })).toBe(false);
    // A name without extension may be a FIE: the server judges it by its header.
    expect(isAcceptedFile({ name: 'README' })).toBe(true);
  });

  it('takes FIE files under their three names with .fie, and no extensionless file without it', () => {
    expect(isAcceptedFile({ name: 'parte.fie' }, '.txt,.fie')).toBe(true);
    expect(isAcceptedFile({ name: 'FIE20250115' }, '.txt,.fie')).toBe(true);
    expect(isAcceptedFile({ name: 'FIE20250115' }, '.xlsx,.csv')).toBe(false);
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
