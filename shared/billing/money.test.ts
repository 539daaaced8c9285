import { describe, expect, it } from 'vitest';
import { creditUnitNames, formatCredits, formatMoney, formatUnitPrice } from './money.ts';

// Intl puts a non-breaking space between the amount and the euro sign.
const nbsp = '\u00a0';

describe('creditUnitNames', () => {
  it('defaults to slan / slans', () => {
    expect(creditUnitNames()).toEqual({ singular: 'slan', plural: 'slans' });
    expect(creditUnitNames('  ')).toEqual({ singular: 'slan', plural: 'slans' });
  });

  it('splits a custom config by |', () => {
    expect(creditUnitNames('crédito|créditos')).toEqual({ singular: 'crédito', plural: 'créditos' });
    expect(creditUnitNames(' token | tokens ')).toEqual({ singular: 'token', plural: 'tokens' });
  });

  it('uses a lone name for both forms', () => {
    expect(creditUnitNames('uds')).toEqual({ singular: 'uds', plural: 'uds' });
  });
});

describe('formatUnitPrice', () => {
  it('keeps the figures of a price per slan, es-ES, with at least the cents', () => {
    expect(formatUnitPrice(0.05)).toBe(`0,05${nbsp}€`);
    expect(formatUnitPrice(0.003)).toBe(`0,003${nbsp}€`);
    expect(formatUnitPrice(1.5)).toBe(`1,50${nbsp}€`);
  });
});

describe('formatMoney', () => {
  it('formats euros the es-ES way', () => {
    expect(formatMoney(12345.5)).toBe(`12.345,50${nbsp}€`);
    expect(formatMoney(0)).toBe(`0,00${nbsp}€`);
  });

  it('accepts another currency', () => {
    expect(formatMoney(10, 'USD')).toBe(`10,00${nbsp}US$`);
  });
});

describe('formatCredits', () => {
  it('picks singular for exactly one and plural otherwise', () => {
    expect(formatCredits(1)).toBe('1 slan');
    expect(formatCredits(25)).toBe('25 slans');
    expect(formatCredits(0)).toBe('0 slans');
    expect(formatCredits(1500)).toBe('1.500 slans');
  });

  it('groups thousands the es-ES way and uses the custom names', () => {
    expect(formatCredits(12345, 'crédito|créditos')).toBe('12.345 créditos');
    expect(formatCredits(1.5, 'crédito|créditos')).toBe('1,5 créditos');
  });
});
