import { describe, expect, it } from 'vitest';
import { readFields } from './fields.ts';
import { registryDateOf } from './registry-date.ts';

describe('registryDateOf', () => {
  it('shows one date as dd/mm/yyyy', () => {
    expect(registryDateOf([readFields({ 100: '20250115' }), readFields({ 100: '20250115' })])).toBe('15/01/2025');
  });

  it("shows several as 'first • last', whatever the entry order", () => {
    const sets = ['20250120', '20250103', '20250111'].map((date) => readFields({ 100: date }));
    expect(registryDateOf(sets)).toBe('03/01/2025 • 20/01/2025');
  });

  it('is null when no entry has a readable date', () => {
    expect(registryDateOf([readFields({ 100: '00000000' }), readFields({ 100: '2025XX01' }), {}])).toBeNull();
  });
});
