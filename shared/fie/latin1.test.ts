import { describe, expect, it } from 'vitest';
import { decodeLatin1 } from './latin1.ts';

describe('decodeLatin1', () => {
  it('maps every byte to the code point of the same value, C1 controls included', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const text = decodeLatin1(bytes);
    expect([...text].map((character) => character.charCodeAt(0))).toEqual([...bytes]);
    expect(decodeLatin1(Uint8Array.of(0x4e, 0xfa, 0xf1, 0x65, 0x7a))).toBe('Núñez');
  });

  it('handles inputs longer than one slice', () => {
    const bytes = new Uint8Array(70_000).fill(0xd1);
    expect(decodeLatin1(bytes)).toBe('Ñ'.repeat(70_000));
    expect(decodeLatin1(new Uint8Array())).toBe('');
  });
});
