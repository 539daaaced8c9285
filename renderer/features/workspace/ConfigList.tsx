import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { MachineConfig } from '#shared/api/machines.ts';
import { useDeleteMachineConfigMutation } from '../../api/machines.ts';
import { useToast } from '../../app/hooks.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, IconAlert } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { errorMessage } from '../../ui/forms.ts';

const text = workspace.configs;

/** Where the email wizard edits a saved config (a machine's, or the firm's own without `machineId`). */
export const editConfigPath = (configId: string, machineId?: string) =>
  `/email?${new URLSearchParams({ ...(machineId === undefined ? {} : { machine: machineId }), config: configId }).toString()}`;

interface ConfigListProps {
  configs: readonly MachineConfig[];
  /** The list's accessible name. */
  label: string;
  /** The machine that keeps them; none for the firm's own. */
  machineId?: string;
  /** Shown instead of the list when there are none. */
  empty: ReactNode;
}

/**
 * Saved configurations, each with its CCCs, its mail account and any problem, 'Editar' (in the email
 * wizard) and 'Eliminar' behind a confirmation: a machine's list and the firm's own share it.
 */
export function ConfigList({ configs, label, machineId, empty }: ConfigListProps) {
  const toast = useToast();
  const [deleteConfig, { isLoading: deleting }] = useDeleteMachineConfigMutation();
  const [confirming, setConfirming] = useState<MachineConfig | null>(null);

  const remove = async (config: MachineConfig) => {
    try {
      await deleteConfig(config._id).unwrap();
      toast.success(text.removed);
    } catch (error) {
      toast.error(errorMessage(error, text.removeFailed));
    } finally {
      setConfirming(null);
    }
  };

  return (
    <>
      {configs.length === 0 ? (
        empty
      ) : (
        <ul className="workspace-configs__list" aria-label={label}>
          {configs.map((config) => (
            <li key={config._id} className="workspace-configs__item">
              <div className="workspace-configs__text">
                <strong className="workspace-configs__name">{config.name}</strong>
                <span className="ui-muted">{text.ccc(config.cccList)}</span>
                <span className="ui-muted">
                  {config.emailSettings ? text.email(text.providers[config.emailSettings.provider], config.emailSettings.email) : text.noEmail}
                </span>
                {config.error !== null && (
                  <span className="workspace-warning">
                    <IconAlert size={16} />
                    {text.flagged}: {config.error}
                  </span>
                )}
              </div>
              <div className="workspace-actions">
                {/* The wizard edits the mail part: a machine's config without one is only its CCC list. */}
                {config.error === null && (machineId === undefined || config.emailSettings !== null) && (
                  <Link className="ui-button ui-button--ghost" to={editConfigPath(config._id, machineId)} aria-label={text.editLabel(config.name)}>
                    <span className="ui-button__label">{text.edit}</span>
                  </Link>
                )}
                <Button variant="ghost" aria-label={text.removeLabel(config.name)} onClick={() => setConfirming(config)}>
                  {text.remove}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={text.confirmTitle}
        text={confirming ? text.confirmText(confirming.name) : ''}
        confirmLabel={text.remove}
        busy={deleting}
        onConfirm={() => confirming && void remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </>
  );
}
