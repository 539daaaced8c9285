import { useId } from 'react';
import { macros } from '../i18n/es-macros.ts';
import { Button } from './Button.tsx';

/**
 * The optional certificate of a page the robot's browser opens (the recorder's and the scraper's start
 * page): which one is chosen, 'Elegir certificado' / 'Cambiar', and 'Quitar certificado'.
 */
export function PageCertificateField({ certificate, choosing, onChoose, onClear }: {
  certificate: { commonName: string } | null;
  /** The certificate list is being read from this PC. */
  choosing: boolean;
  onChoose(): void;
  onClear(): void;
}) {
  const id = useId();
  const text = macros.certificate;
  return (
    <div className="sb-field" role="group" aria-labelledby={id}>
      <span id={id}>{text.label}</span>
      <p className="ui-muted sb-small sb-code-line">{certificate ? text.chosen(certificate.commonName) : `${macros.noCertificate}. ${text.help}`}</p>
      <div className="sb-actions">
        <Button variant="secondary" loading={choosing} onClick={onChoose}>{certificate ? text.change : text.choose}</Button>
        {certificate && <Button variant="ghost" onClick={onClear}>{text.clear}</Button>}
      </div>
    </div>
  );
}
