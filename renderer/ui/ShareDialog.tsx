import { useId, useState } from 'react';
import { SHARE_ACCESS, SHARE_ACCESS_LABELS } from '#shared/api/share.ts';
import type { ObjectShares, ShareAccess, ShareKind } from '#shared/api/share.ts';
import type { HttpError } from '../api/baseApi.ts';
import { useObjectSharesQuery, useSaveObjectSharesMutation } from '../api/share.ts';
import { useToast } from '../app/hooks.ts';
import { sharing } from '../i18n/es-share.ts';
import { Button } from './Button.tsx';
import { IconClose } from './icons.tsx';
import { Modal } from './Modal.tsx';
import { Spinner } from './Spinner.tsx';

export interface ShareDialogProps {
  kind: ShareKind;
  id: string;
  /** The object's name, for the title. */
  name: string;
  open: boolean;
  onClose: () => void;
}

type Grant = ObjectShares['grants'][number];

/**
 * Who an object (a template, a form, …) is shared with, for its owner: each colleague with access
 * 'Puede ver y copiar' or 'Puede editar', added, changed or removed, saved together (PUT object).
 * Generic over the kind: templates, online forms and the firm's robots (macros) use it.
 */
export function ShareDialog({ kind, id, name, open, onClose }: ShareDialogProps) {
  if (!open) return null;
  return <ShareDialogOpen kind={kind} id={id} name={name} onClose={onClose} />;
}

function ShareDialogOpen({ kind, id, name, onClose }: Omit<ShareDialogProps, 'open'>) {
  const shares = useObjectSharesQuery({ kind, id }, { refetchOnMountOrArgChange: true });
  const [save, saving] = useSaveObjectSharesMutation();
  const toast = useToast();
  const [edited, setEdited] = useState<Grant[] | null>(null);
  const grants = edited ?? shares.data?.grants ?? [];

  const submit = async () => {
    try {
      await save({ kind, id, grants: grants.map(({ userId, access }) => ({ userId, access })) }).unwrap();
      toast.success(sharing.saved);
      onClose();
    } catch (error) {
      toast.error((error as HttpError).message || sharing.failed);
    }
  };

  return (
    <Modal
      open
      size="medium"
      title={sharing.title(name)}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{sharing.cancel}</Button>
          <Button loading={saving.isLoading} disabled={shares.data === undefined || edited === null} onClick={() => void submit()}>{sharing.save}</Button>
        </>
      }
    >
      {shares.isError ? (
        <div>
          <p role="alert">{sharing.loadFailed}</p>
          <Button variant="secondary" onClick={() => void shares.refetch()}>{sharing.retry}</Button>
        </div>
      ) : shares.data === undefined ? (
        <p role="status"><Spinner size="small" decorative /> {sharing.loading}</p>
      ) : (
        <ShareEditor shares={shares.data} grants={grants} onChange={setEdited} />
      )}
    </Modal>
  );
}

function ShareEditor({ shares, grants, onChange }: { shares: ObjectShares; grants: Grant[]; onChange: (grants: Grant[]) => void }) {
  const ids = useId();
  const available = shares.colleagues.filter((colleague) => !grants.some((grant) => grant.userId === colleague.userId));
  const [picked, setPicked] = useState('');
  const [access, setAccess] = useState<ShareAccess>('view');
  const pickedId = available.some((colleague) => colleague.userId === picked) ? picked : (available[0]?.userId ?? '');

  const add = () => {
    const colleague = available.find((item) => item.userId === pickedId);
    if (!colleague) return;
    onChange([...grants, { ...colleague, access }]);
    setPicked('');
  };

  if (shares.colleagues.length === 0 && grants.length === 0) return <p className="ui-muted">{sharing.noColleagues}</p>;

  return (
    <div className="dc-share">
      <p className="ui-muted">{sharing.intro}</p>
      <h3 className="dc-subtitle">{sharing.grantsTitle}</h3>
      {grants.length === 0 ? (
        <p className="ui-muted">{sharing.noGrants}</p>
      ) : (
        <ul className="dc-share__list">
          {grants.map((grant) => (
            <li key={grant.userId} className="dc-share__row">
              <div className="dc-share__who">
                <strong>{grant.name}</strong>
                <span className="ui-muted dc-small">{grant.email}</span>
              </div>
              <select
                className="ui-input"
                aria-label={sharing.accessFor(grant.name)}
                value={grant.access}
                onChange={(event) => onChange(grants.map((item) => (item.userId === grant.userId ? { ...item, access: event.target.value as ShareAccess } : item)))}
              >
                {SHARE_ACCESS.map((value) => <option key={value} value={value}>{SHARE_ACCESS_LABELS[value]}</option>)}
              </select>
              <button type="button" className="ui-icon-button" aria-label={sharing.remove(grant.name)} onClick={() => onChange(grants.filter((item) => item.userId !== grant.userId))}>
                <IconClose size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {available.length > 0 && (
        <div className="dc-share__add">
          <label className="dc-field">
            <span>{sharing.add}</span>
            <select id={`${ids}-who`} className="ui-input" value={pickedId} onChange={(event) => setPicked(event.target.value)}>
              {available.map((colleague) => <option key={colleague.userId} value={colleague.userId}>{`${colleague.name} (${colleague.email})`}</option>)}
            </select>
          </label>
          <label className="dc-field">
            <span>{sharing.access}</span>
            <select className="ui-input" value={access} onChange={(event) => setAccess(event.target.value as ShareAccess)}>
              {SHARE_ACCESS.map((value) => <option key={value} value={value}>{SHARE_ACCESS_LABELS[value]}</option>)}
            </select>
          </label>
          <Button variant="secondary" onClick={add}>{sharing.addButton}</Button>
        </div>
      )}
    </div>
  );
}
