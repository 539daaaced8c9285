/** Spec §9: certificate search is case-insensitive over device name plus certificate name, ignoring spaces. */

export interface CertificateSearchFields {
  deviceName?: string | null;
  certificateName: string;
}

const squash = (text: string): string => text.replace(/\s+/g, '').toLocaleLowerCase('es');

/** Whether a query matches; an empty query matches everything. */
export function matchesCertificateSearch(fields: CertificateSearchFields, query: string): boolean {
  const needle = squash(query);
  return needle === '' || squash(`${fields.deviceName ?? ''}${fields.certificateName}`).includes(needle);
}

/** The items matching the query, in their order; `fields` says where each item keeps its names. */
export function searchCertificates<T>(items: readonly T[], query: string, fields: (item: T) => CertificateSearchFields): T[] {
  return items.filter((item) => matchesCertificateSearch(fields(item), query));
}
