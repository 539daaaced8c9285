/**
 * Counts in running text, es-ES with the thousands point always ('4.500 de 10.000', not '4500 de
 * 10.000': es-ES leaves four digits ungrouped by default, which reads unevenly beside five).
 */
export const figures = new Intl.NumberFormat('es-ES', { useGrouping: 'always' });

/** '45.000 de 1.000.000'. */
export const doneOfTotal = (done: number, total: number) => `${figures.format(done)} de ${figures.format(total)}`;
