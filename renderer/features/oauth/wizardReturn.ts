/**
 * The hand-back to the email wizard after the provider's page. Features do not import each other, so
 * this names the wizard's sessionStorage key (renderer/features/email/draft.ts, DRAFT_STORAGE_KEY) and
 * its ?linked= parameter; the wizard reads its own draft and selects the linked account.
 */
export const MAIL_WIZARD_DRAFT_KEY = 'autoasesor.mailWizardDraft';

/** A wizard left for the provider's page in this tab and is waiting to continue. */
export function mailWizardWaiting(): boolean {
  try {
    return window.sessionStorage.getItem(MAIL_WIZARD_DRAFT_KEY) !== null;
  } catch {
    return false;
  }
}

/** Back to the wizard, which restores its draft; with the new account chosen when there is one. */
export function mailWizardPath(linkedAccountId: string | null): string {
  return linkedAccountId === null ? '/email' : `/email?${new URLSearchParams({ linked: linkedAccountId }).toString()}`;
}
