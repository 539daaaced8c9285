import { useState } from 'react';
import type { FormEvent } from 'react';
import { useToast } from '../../app/hooks.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, TextField } from '../../ui/index.ts';
import type { LocalDevice } from './useLocalDevice.ts';

const text = workspace.folder;

/**
 * The .p12/.pfx folder read besides the OS store (SetCertificateFolder). The path is typed: the agent
 * has no native dialog, and a typed path works in both hosts.
 */
export function FolderSettings({ device }: { device: LocalDevice }) {
  const toast = useToast();
  const current = device.list?.folder ?? null;
  const [path, setPath] = useState(current ?? '');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const change = async (folder: string | null) => {
    setBusy(true);
    const result = await device.setFolder(folder);
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message || text.failed);
      return;
    }
    setError(undefined);
    if (folder === null) setPath('');
    toast.success(folder === null ? text.removed : text.saved);
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const folder = path.trim();
    if (folder === '') {
      setError(text.required);
      return;
    }
    void change(folder);
  };

  return (
    <section className="workspace-folder" aria-labelledby="workspace-folder-title">
      <h3 id="workspace-folder-title" className="workspace-folder__title">{text.title}</h3>
      <p className="ui-muted">{current ? text.current(current) : text.none}</p>
      <form className="workspace-folder__form" onSubmit={save} noValidate>
        <TextField
          label={text.label}
          value={path}
          error={error}
          maxLength={1000}
          spellCheck={false}
          autoComplete="off"
          onValueChange={(value) => {
            setPath(value);
            setError(undefined);
          }}
        />
        <div className="workspace-actions">
          <Button type="submit" variant="secondary" loading={busy}>{text.save}</Button>
          {current && (
            <Button variant="ghost" disabled={busy} onClick={() => void change(null)}>{text.remove}</Button>
          )}
        </div>
      </form>
      <p className="ui-muted workspace-note">{text.hint}</p>
    </section>
  );
}
