import { createMailDesktop } from './authorize.ts';
import { readMailDesktopSettings } from './settings.ts';
import type { MailDesktop, UrlOpener } from './types.ts';

/** The mailbox linking as both hosts build it: settings from env, the host's way of opening a browser. */
export function createHostMailDesktop(options: { env: NodeJS.ProcessEnv; openUrl: UrlOpener }): MailDesktop {
  return createMailDesktop({ settings: () => readMailDesktopSettings(options.env), openUrl: options.openUrl });
}
