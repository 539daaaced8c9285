import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { PromptContext } from '../contexts.ts';
import type { CertificateChoice, CertificatePromptOptions, PromptApi, TextPromptOptions } from '../contexts.ts';

// The dialogs (certificate rows, search, the modal) load when the first prompt opens: every screen
// sits inside this provider, the sign-in screen included, and most never open one.
const TextPrompt = lazy(async () => ({ default: (await import('./PromptDialogs.tsx')).TextPrompt }));
const CertificatePrompt = lazy(async () => ({ default: (await import('./PromptDialogs.tsx')).CertificatePrompt }));

type OpenPrompt =
  | { variant: 'text'; options: TextPromptOptions; resolve: (answer: string | null) => void }
  | { variant: 'certificate'; multiple: boolean; options: CertificatePromptOptions; resolve: (answer: CertificateChoice[] | null) => void };

/** Provides usePrompt(): one modal at a time, with a text-input and a certificate-picker variant. */
export function PromptProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<OpenPrompt | null>(null);
  const openRef = useRef<OpenPrompt | null>(null);

  const show = useCallback((prompt: OpenPrompt) => {
    openRef.current?.resolve(null); // a newer prompt replaces an unanswered one
    openRef.current = prompt;
    setOpen(prompt);
  }, []);

  const api = useMemo<PromptApi>(
    () => ({
      text: (options) => new Promise((resolve) => show({ variant: 'text', options, resolve })),
      certificate: (options) =>
        new Promise((resolve) => show({ variant: 'certificate', multiple: false, options, resolve: (answer) => resolve(answer?.[0] ?? null) })),
      certificates: (options) => new Promise((resolve) => show({ variant: 'certificate', multiple: true, options, resolve })),
    }),
    [show],
  );

  /** Closes the open prompt and hands it back, so its own answer type resolves it. */
  const close = useCallback((): OpenPrompt | null => {
    const current = openRef.current;
    openRef.current = null;
    setOpen(null);
    return current;
  }, []);

  const answerText = useCallback((answer: string | null) => {
    const current = close();
    if (current?.variant === 'text') current.resolve(answer);
  }, [close]);

  const answerCertificates = useCallback((answer: CertificateChoice[] | null) => {
    const current = close();
    if (current?.variant === 'certificate') current.resolve(answer);
  }, [close]);

  return (
    <PromptContext.Provider value={api}>
      {children}
      <Suspense fallback={null}>
        {open?.variant === 'text' && <TextPrompt options={open.options} onDone={answerText} />}
        {open?.variant === 'certificate' && <CertificatePrompt options={open.options} multiple={open.multiple} onDone={answerCertificates} />}
      </Suspense>
    </PromptContext.Provider>
  );
}
