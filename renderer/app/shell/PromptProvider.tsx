import { useCallback, useMemo, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { PromptContext } from '../contexts.ts';
import type { CertificateChoice, CertificatePromptOptions, PromptApi, TextPromptOptions } from '../contexts.ts';
import { es } from '../../i18n/es.ts';
import { TextField } from '../../ui/TextField.tsx';

type OpenPrompt =
  | { variant: 'text'; options: TextPromptOptions; resolve: (answer: string | null) => void }
  | { variant: 'certificate'; options: CertificatePromptOptions; resolve: (answer: CertificateChoice | null) => void };

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
      certificate: (options) => new Promise((resolve) => show({ variant: 'certificate', options, resolve })),
    }),
    [show],
  );

  const finish = useCallback((answer: string | CertificateChoice | null) => {
    const current = openRef.current;
    openRef.current = null;
    setOpen(null);
    if (current?.variant === 'text') current.resolve(typeof answer === 'string' ? answer : null);
    if (current?.variant === 'certificate') current.resolve(typeof answer === 'object' ? answer : null);
  }, []);

  return (
    <PromptContext.Provider value={api}>
      {children}
      {open?.variant === 'text' && <TextPrompt options={open.options} onDone={finish} />}
      {open?.variant === 'certificate' && <CertificatePrompt options={open.options} onDone={finish} />}
    </PromptContext.Provider>
  );
}

function TextPrompt({ options, onDone }: { options: TextPromptOptions; onDone: (answer: string | null) => void }) {
  const [value, setValue] = useState(options.initialValue ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onDone(value);
  };
  return (
    <Modal open title={options.title} onClose={() => onDone(null)} size="small">
      <form onSubmit={submit} className="app-prompt">
        <TextField label={options.label} value={value} onValueChange={setValue} />
        <div className="app-prompt__actions">
          <Button variant="secondary" onClick={() => onDone(null)}>
            {es.common.cancel}
          </Button>
          <Button type="submit">{options.confirmLabel ?? es.common.accept}</Button>
        </div>
      </form>
    </Modal>
  );
}

function CertificatePrompt({ options, onDone }: { options: CertificatePromptOptions; onDone: (answer: CertificateChoice | null) => void }) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = options.certificates.find((certificate) => certificate.id === selectedId) ?? null;
  return (
    <Modal
      open
      title={options.title}
      onClose={() => onDone(null)}
      footer={
        <>
          <Button variant="secondary" onClick={() => onDone(null)}>
            {es.common.cancel}
          </Button>
          <Button disabled={!selected} onClick={() => onDone(selected)}>
            {options.confirmLabel ?? es.common.accept}
          </Button>
        </>
      }
    >
      {options.certificates.length === 0 ? (
        <p className="app-prompt__empty">{es.prompt.noCertificates}</p>
      ) : (
        <fieldset className="app-prompt__certificates">
          <legend>{es.prompt.chooseCertificate}</legend>
          {options.certificates.map((certificate) => (
            <label key={certificate.id} className="app-prompt__certificate">
              <input
                type="radio"
                name="certificate"
                value={certificate.id}
                checked={certificate.id === selectedId}
                onChange={() => setSelectedId(certificate.id)}
              />
              <span>
                <strong>{certificate.name}</strong>
                {certificate.detail && <small>{certificate.detail}</small>}
              </span>
            </label>
          ))}
        </fieldset>
      )}
    </Modal>
  );
}
