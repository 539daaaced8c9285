import { lazy, Suspense } from 'react';
import type { ModalProps } from './modalProps.ts';

export type { ModalProps } from './modalProps.ts';

// The shell renders Modals on every route (update prompt, payment, prompts), /auth included: the
// dialog and React Aria load only when one opens, so the entry chunk stays small.
const loadDialog = () => import('./ModalDialog.tsx');
const ModalDialog = lazy(loadDialog);

/** Fetches the dialog code ahead of time (e.g. when idle) so the first Modal opens without a wait. */
export function preloadModal(): Promise<unknown> {
  return loadDialog();
}

/** A dialog over the page (focus trapped inside and handed back on close, Escape and backdrop close it). */
export function Modal({ open, ...props }: ModalProps) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
