import type { Handler } from './context.ts';

/**
 * The personal certificates of this PC (OS store and the chosen .p12/.pfx folder), with what could not
 * be read. Metadata only: no key, no password ever comes back.
 */
export const GetCertificatesList: Handler<'GetCertificatesList'> = async (_args, ctx) => {
  const { certificates, problems, folder } = await ctx.certificates.list();
  return { certificates, problems, folder, readAt: ctx.now().toISOString() };
};
