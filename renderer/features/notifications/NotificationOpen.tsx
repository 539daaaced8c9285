import { OPEN_CONFIRMATION_TEXT, OPEN_CONFIRMATION_TITLE } from '#shared/api/notifications.ts';
import type { NotificationDetail } from '#shared/api/notifications.ts';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { Button } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { documentUrl, useNotificationQuery } from '../../api/notifications.ts';
import { formatDay } from './notificationsView.ts';
import type { OpenStep } from './useOpenNotification.ts';

export interface NotificationOpenProps {
  step: OpenStep;
  onConfirm: () => void;
  onClose: () => void;
  machineName: (notification: Extract<OpenStep, { kind: 'elsewhere' }>['notification']) => string;
}

/** The dialogs of opening a notification: the legal confirmation, 'open it on its machine', and the detail. */
export function NotificationOpen({ step, onConfirm, onClose, machineName }: NotificationOpenProps) {
  return (
    <>
      <Modal
        open={step.kind === 'confirm'}
        title={OPEN_CONFIRMATION_TITLE}
        onClose={onClose}
        size="small"
        footer={
          <>
            <Button variant="secondary" onClick={onClose}>{text.openFlow.cancel}</Button>
            <Button loading={step.kind === 'confirm' && step.opening} onClick={onConfirm}>{text.openFlow.confirm}</Button>
          </>
        }
      >
        <p>{OPEN_CONFIRMATION_TEXT}</p>
        {step.kind === 'confirm' && step.opening && <p role="status">{text.openFlow.opening}</p>}
        {step.kind === 'confirm' && step.error !== null && <p role="alert" className="notifications-error">{step.error}</p>}
      </Modal>
      <Modal
        open={step.kind === 'elsewhere'}
        title={text.openFlow.needsDesktopTitle}
        onClose={onClose}
        size="small"
        footer={<Button onClick={onClose}>{text.update.close}</Button>}
      >
        {step.kind === 'elsewhere' && <p>{text.openFlow.needsDesktop(machineName(step.notification))}</p>}
      </Modal>
      {step.kind === 'detail' && <DetailModal notificationId={step.notificationId} onClose={onClose} />}
    </>
  );
}

function DetailModal({ notificationId, onClose }: { notificationId: string; onClose: () => void }) {
  const query = useNotificationQuery(notificationId);
  const detail = query.data;
  return (
    <Modal open title={detail?.concepto ?? text.detail.title} onClose={onClose} size="large" footer={<Button onClick={onClose}>{text.detail.close}</Button>}>
      {query.isLoading && <p role="status">{text.detail.loading}</p>}
      {query.isError && <p role="alert">{text.detail.loadFailed}</p>}
      {detail && <DetailBody detail={detail} />}
    </Modal>
  );
}

function DetailBody({ detail }: { detail: NotificationDetail }) {
  const fields = text.detail.fields;
  const rows: [string, string | null][] = [
    [fields.titular, `${detail.titular} (${detail.titularNif})`],
    [fields.organoEmisor, detail.organoEmisor],
    [fields.organismoRaiz, detail.organismoRaiz],
    [fields.codProcedimiento, detail.codProcedimiento],
    [fields.concepto, detail.concepto],
    [fields.descripcion, detail.descripcion],
    [fields.disposicion, formatDay(detail.disposicion)],
    [fields.caducidad, detail.caducidad === null ? text.noDeadline : formatDay(detail.caducidad)],
    [fields.estado, text.states[detail.estado]],
    [fields.openedAt, detail.openedAt === null ? null : formatMadridDateTime(new Date(detail.openedAt))],
    [fields.openedBy, detail.openedBy === null ? null : detail.openedBy.name],
    [fields.receptor, detail.receptor === null ? null : personWithNif(detail.receptor.nombre, detail.receptor.nif)],
    [fields.csvResguardo, detail.csvResguardo],
    [fields.certificate, detail.certificate.commonName],
  ];
  const main = detail.documents.find((document) => document.kind === 'documento');
  return (
    <div className="notifications-detail">
      <dl className="notifications-detail__fields">
        {rows
          .filter((row): row is [string, string] => row[1] !== null && row[1] !== '')
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      {main ? (
        <PdfViewer url={documentUrl(detail._id, main._id)} name={main.name} />
      ) : (
        <p className="ui-muted">{text.detail.noDocument}</p>
      )}
      {detail.documents.length > 0 && (
        <section aria-label={text.detail.downloads}>
          <h3 className="ui-section__title">{text.detail.downloads}</h3>
          <ul className="notifications-detail__downloads">
            {detail.documents.map((document) => (
              <li key={document._id}>
                <a href={documentUrl(detail._id, document._id)} download={document.name}>
                  {text.detail.download(text.detail.kinds[document.kind], document.name)}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/**
 * The notice's PDF, shown by the browser's own PDF viewer in an <object> (no frame of ours). The server
 * serves it only as application/pdf with nosniff and `default-src 'none'; sandbox` (issue 39): whatever
 * the bytes are, that document has an opaque origin and runs no script. It is not an <iframe sandbox>:
 * Chromium refuses to show a PDF in any sandboxed iframe, whatever its allow- tokens (checked in 156),
 * while the response's own CSP sandbox leaves its viewer working. Where no viewer may run (a browser
 * without one, a window whose CSP forbids objects), the fallback offers the download.
 */
function PdfViewer({ url, name }: { url: string; name: string }) {
  return (
    <object className="notifications-detail__viewer" type="application/pdf" data={url} title={text.detail.document}>
      <p className="ui-muted">
        {text.detail.viewerFallback} <a href={url} download={name}>{name}</a>
      </p>
    </object>
  );
}

/** 'NAME (NIF)', unless the name already carries the NIF (a certificate's CN does: 'SURNAMES NAME - NIF'). */
function personWithNif(name: string, nif: string): string {
  return nif === '' || name.includes(nif) ? name : `${name} (${nif})`;
}
