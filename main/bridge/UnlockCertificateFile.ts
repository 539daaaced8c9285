import type { Handler } from './context.ts';

/** Checks a .p12/.pfx file's password and keeps it encrypted on this PC; answers how many certificates it opened. */
export const UnlockCertificateFile: Handler<'UnlockCertificateFile'> = async ({ file, password }, ctx) => ({
  file,
  certificates: await ctx.certificates.unlock(file, password),
});
