/** Headers every request of ours carries (spec §7): who is calling, in which version and language. */
export const CLIENT_APP_HEADER = 'x-client-app';
export const CLIENT_VERSION_HEADER = 'x-client-version';
export const LANGUAGE_HEADER = 'accept-language';

export const clientApps = ['web', 'desktop', 'agent'] as const;
export type ClientApp = (typeof clientApps)[number];
