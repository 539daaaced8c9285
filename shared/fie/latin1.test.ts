import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeLatin1 } from './latin1.ts';

const reference = (bytes: Uint8Array) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');

describe('decodeLatin1', () => {
  it('maps every byte to the code point of the same value, C1 controls included', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const text = decodeLatin1(bytes);
    expect([...text].map((character) => character.charCodeAt(0))).toEqual([...bytes]);
    expect(decodeLatin1(Uint8Array.of(0x4e, 0xfa, 0xf1, 0x65, 0x7a))).toBe('Núñez');
  });

  it('maps text without C1 controls the same way (the native windows-1252 path)', () => {
    const bytes = Uint8Array.from({ length: 256 - 32 }, (_, index) => (index < 0x80 ? index : index + 32));
    expect(decodeLatin1(bytes)).toBe(reference(bytes));
    // 0x80 is '€' in windows-1252 but U+0080 in Latin-1.
    expect(decodeLatin1(Uint8Array.of(0x41, 0x80)).charCodeAt(1)).toBe(0x80);
  });

  it('agrees with a byte-by-byte mapping on any input', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => decodeLatin1(bytes) === reference(bytes)));
  });

  it('handles inputs longer than one slice', () => {
    const bytes = new Uint8Array(70_000).fill(0xd1);
    expect(decodeLatin1(bytes)).toBe('Ñ'.repeat(70_000));
    expect(decodeLatin1(new Uint8Array())).toBe('');
  });
});
