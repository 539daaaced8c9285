import { useState } from 'react';
import type { FormEvent } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import { useDeleteMachineMutation, useUpdateMachineMutation } from '../../api/machines.ts';
import { useToast } from '../../app/hooks.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, TextField, Toggle } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { errorMessage } from '../../ui/forms.ts';

const text = workspace.owner;

/** What only the machine's owner may do: rename it, share it with the firm, delete it. */
export function OwnerSettings({ machine, onDeleted }: { machine: Machine; onDeleted: () => void }) {
  const toast = useToast();
  const [updateMachine, { isLoading: updating }] = useUpdateMachineMutation();
  const [deleteMachine, { isLoading: deleting }] = useDeleteMachineMutation();
  const [name, setName] = useState(machine.savedAs);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    const savedAs = name.trim();
    if (savedAs === '') {
      setNameError(workspace.local.deviceNameRequired);
      return;
    }
    try {
      await updateMachine({ id: machine._id, changes: { savedAs } }).unwrap();
      toast.success(text.renamed);
    } catch (error) {
      toast.error(errorMessage(error, text.renameFailed));
    }
  };

  const share = async (shared: boolean) => {
    try {
      await updateMachine({ id: machine._id, changes: { shared } }).unwrap();
      toast.success(shared ? text.sharedOn : text.sharedOff);
    } catch (error) {
      toast.error(errorMessage(error, text.shareFailed));
    }
  };

  const remove = async () => {
    try {
      await deleteMachine(machine._id).unwrap();
      setConfirming(false);
      toast.success(text.removed);
      onDeleted();
    } catch {
      setConfirming(false);
      // Spec §8: this exact message, as a 3 s error toast.
      toast.error(text.removeFailed);
    }
  };

  return (
    <section className="workspace-owner" aria-labelledby={`owner-${machine._id}`}>
      <h3 id={`owner-${machine._id}`} className="workspace-owner__title">{text.title}</h3>
      <form className="workspace-owner__rename" onSubmit={(event) => void rename(event)} noValidate>
        <TextField
          label={text.rename}
          value={name}
          required
          maxLength={100}
          error={nameError}
          reserve={[workspace.local.deviceNameRequired]}
          onValueChange={(value) => {
            setName(value);
            if (value.trim() !== '') setNameError(undefined);
          }}
        />
        <Button type="submit" variant="secondary" disabled={updating}>{text.saveName}</Button>
      </form>
      <Toggle label={text.share} description={text.shareHint} checked={machine.shared} disabled={updating} onChange={(shared) => void share(shared)} />
      <div className="workspace-actions">
        <Button variant="danger" onClick={() => setConfirming(true)}>{text.remove}</Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={text.confirmTitle}
        text={text.confirmText(machine.savedAs)}
        confirmLabel={text.confirm}
        busy={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
