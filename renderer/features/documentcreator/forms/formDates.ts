import { formatMadridDateTime } from '#shared/time/madrid.ts';

/** '02/12/2026 11:05' in Madrid's time, for the advisor's lists (Intl's short style gives '2/12/26'). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatMadridDateTime(date);
}
