export { matchesCertificateSearch, searchCertificates } from './search.ts';
export type { CertificateSearchFields } from './search.ts';
export * from './certificate.ts';
