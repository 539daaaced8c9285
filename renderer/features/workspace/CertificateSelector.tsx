import { useEffect, useId, useRef } from 'react';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { CertificateItem } from '../../ui/CertificateItem.tsx';

const text = workspace.local;

export type SelectionMode = 'multiple' | 'single';

export interface CertificateSelectorProps {
  certificates: readonly LocalCertificate[];
  /** Fingerprints of the chosen certificates. */
  selected: ReadonlySet<string>;
  onChange: (selected: ReadonlySet<string>) => void;
  /** 'single' (spec §5): choosing one clears the others, with radios and no 'Seleccionar todos'. */
  mode?: SelectionMode;
  /** Fingerprints already synced to the server, marked on their rows. */
  synced?: ReadonlySet<string>;
  label?: string;
}

/** The local certificates with a checkbox (or radio) each, and 'Seleccionar todos' over the ones shown. */
export function CertificateSelector({ certificates, selected, onChange, mode = 'multiple', synced, label = text.listLabel }: CertificateSelectorProps) {
  const radioName = useId();
  const shownSelected = certificates.filter((certificate) => selected.has(certificate.fingerprint)).length;
  const allShown = certificates.length > 0 && shownSelected === certificates.length;

  const choose = (fingerprint: string, checked: boolean) => {
    if (mode === 'single') {
      onChange(checked ? new Set([fingerprint]) : new Set());
      return;
    }
    const next = new Set(selected);
    if (checked) next.add(fingerprint);
    else next.delete(fingerprint);
    onChange(next);
  };

  const chooseAll = (checked: boolean) => {
    const next = new Set(selected);
    for (const certificate of certificates) {
      if (checked) next.add(certificate.fingerprint);
      else next.delete(certificate.fingerprint);
    }
    onChange(next);
  };

  return (
    <div className="workspace-selector">
      {mode === 'multiple' && certificates.length > 0 && (
        <div className="workspace-selector__all">
          <SelectAll checked={allShown} mixed={shownSelected > 0 && !allShown} onChange={chooseAll} />
          <span className="ui-muted" aria-live="polite">
            {text.selectedCount(selected.size)}
          </span>
        </div>
      )}
      <ul className="workspace-certificates" aria-label={label}>
        {certificates.map((certificate, index) => (
          <li key={certificate.fingerprint}>
            <CertificateItem
              certificate={certificate}
              index={index}
              selection={{
                type: mode === 'single' ? 'radio' : 'checkbox',
                name: mode === 'single' ? radioName : undefined,
                value: certificate.fingerprint,
                checked: selected.has(certificate.fingerprint),
                onChange: (checked) => choose(certificate.fingerprint, checked),
              }}
              actions={synced?.has(certificate.fingerprint) ? <span className="ui-chip ui-chip--success">{workspace.detail.synced}</span> : undefined}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A real checkbox whose third state (some chosen) is announced as mixed. */
function SelectAll({ checked, mixed, onChange }: { checked: boolean; mixed: boolean; onChange: (checked: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <label className="workspace-selector__all-label">
      <input ref={ref} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {text.selectAll}
    </label>
  );
}
