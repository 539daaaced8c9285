import type { HttpError } from '../../api/baseApi.ts';
import { useDocStartersQuery, useCopyDocStarterMutation } from '../../api/documents.ts';
import { useToast } from '../../app/hooks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';

/** 'Empezar con una plantilla de ejemplo': the starters (autorización RED, datos de alta, RGPD); one click makes the caller's copy. */
export function StartersDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const starters = useDocStartersQuery();
  const [copyStarter, using] = useCopyDocStarterMutation();
  const toast = useToast();

  const pick = async (key: string, name: string) => {
    try {
      const template = await copyStarter(key).unwrap();
      toast.success(text.starters.created(name));
      onCreated(template.id);
    } catch (error) {
      toast.error((error as HttpError).message || text.failed);
    }
  };

  return (
    <Modal open size="medium" title={text.starters.title} onClose={onClose} footer={<Button variant="secondary" onClick={onClose}>{text.close}</Button>}>
      <p className="ui-muted">{text.starters.intro}</p>
      {starters.isError ? (
        <div>
          <p role="alert">{text.starters.loadFailed}</p>
          <Button variant="secondary" onClick={() => void starters.refetch()}>{text.retry}</Button>
        </div>
      ) : starters.data === undefined ? (
        <p role="status"><Spinner size="small" decorative /> {text.starters.loading}</p>
      ) : (
        <ul className="dc-starters">
          {starters.data.map((starter) => (
            <li key={starter.key} className="dc-starter">
              <div className="dc-starter__text">
                <strong>{starter.name}</strong>
                <span className="dc-small">{starter.description}</span>
                <span className="ui-muted dc-small">{text.starters.fields(starter.placeholders)}</span>
              </div>
              <Button
                variant="secondary"
                aria-label={text.starters.useLabel(starter.name)}
                loading={using.isLoading && using.originalArgs === starter.key}
                disabled={using.isLoading}
                onClick={() => void pick(starter.key, starter.name)}
              >
                {text.starters.use}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
