import { userSessionValue } from '../../ui/userSessionValue.ts';

/**
 * The credit banner's state a user hid ('warning', 'extra', 'exceeded'), kept for the tab's session so a
 * reload does not bring it back; the Auth route forgets it (RouteGate), so the next sign-in shows it.
 * ui.creditBannerHidden holds the same while the app runs.
 */
const hiddenState = userSessionValue('autoasesor.creditBannerHidden');

export const readHiddenCreditBanner = (uid: string): string | null => hiddenState.read(uid);
export const rememberHiddenCreditBanner = (uid: string, state: string): void => hiddenState.remember(uid, state);
export const forgetHiddenCreditBanner = (): void => hiddenState.forget();
