import { describe, expect, it } from 'vitest';
import { pickLanguage } from './client-info.ts';

describe('pickLanguage', () => {
  it('takes the first language the app speaks, else Spanish', () => {
    expect(pickLanguage('en-GB,en;q=0.9')).toBe('en');
    expect(pickLanguage('fr-FR, ca;q=0.8, es;q=0.5')).toBe('ca');
    expect(pickLanguage('de-DE')).toBe('es');
    expect(pickLanguage('')).toBe('es');
    expect(pickLanguage(null)).toBe('es');
  });
});
