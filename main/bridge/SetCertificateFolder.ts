import type { Handler } from './context.ts';

/** Chooses the folder of .p12/.pfx files (null forgets it and the passwords kept for its files). */
export const SetCertificateFolder: Handler<'SetCertificateFolder'> = async ({ folder }, ctx) => ({
  folder: await ctx.certificates.setFolder(folder),
});
