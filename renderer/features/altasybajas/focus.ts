/**
 * Focus after a save: a busy Save button is disabled, so focus falls to the page; these hand it back
 * once React has drawn the state that shows the errors (spec §5: go to the first error).
 */
export function focusSoon(id: string): void {
  setTimeout(() => document.getElementById(id)?.focus(), 0);
}

/** The first field marked invalid inside the open dialog, scrolled into view. */
export function focusFirstInvalid(): void {
  setTimeout(() => {
    const field = document.querySelector<HTMLElement>('[role="dialog"] [aria-invalid="true"]');
    field?.focus();
    field?.scrollIntoView?.({ block: 'center' });
  }, 0);
}
