/** Credit units and money as the firm's group configuration names them (spec §1, §9). */

export interface CreditUnitNames {
  singular: string;
  plural: string;
}

const DEFAULT_UNITS: CreditUnitNames = { singular: 'slan', plural: 'slans' };

/**
 * Splits a 'singular|plural' currency config. Missing or blank parts fall back: a single name is
 * used for both forms, and an empty config gives the default 'slan' / 'slans'.
 */
export function creditUnitNames(currencies?: string): CreditUnitNames {
  const [singular = '', plural = ''] = (currencies ?? '').split('|').map((part) => part.trim());
  if (singular === '') return { ...DEFAULT_UNITS };
  return { singular, plural: plural === '' ? singular : plural };
}

/** Money in the es-ES currency format, e.g. '1234,50 €' (non-breaking space before the symbol). */
export function formatMoney(amount: number, currency = 'EUR'): string {
  return new Intl.NumberFormat('es-ES', { style: 'currency', currency }).format(amount);
}

const UNIT_PRICE = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 4 });

/**
 * A price per unit in euros, es-ES: '0,03 €', '0,003 €' (a price of thousandths of a euro keeps its
 * figures, where formatMoney would round it to '0,00 €').
 */
export function formatUnitPrice(amount: number): string {
  return UNIT_PRICE.format(amount);
}

/** Grouped from four digits on: es-ES leaves '1500' ungrouped by default, which reads unevenly beside '10.000'. */
const CREDIT_FIGURES = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2, useGrouping: 'always' });

/** A credit amount with its unit name: '1 slan', '25 slans', '1.500 slans', '12.345 slans'. */
export function formatCredits(amount: number, currencies?: string): string {
  const { singular, plural } = creditUnitNames(currencies);
  const unit = Math.abs(amount) === 1 ? singular : plural;
  return `${CREDIT_FIGURES.format(amount)} ${unit}`;
}
