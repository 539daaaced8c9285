import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { MachineConfig } from '#shared/api/machines.ts';
import { useDeleteMachineConfigMutation, useFirmConfigsQuery } from '../../api/machines.ts';
import { useToast } from '../../app/hooks.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, IconAlert, IconMail, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { errorMessage } from '../../ui/forms.ts';

const text = workspace.configs;
const firm = workspace.firmConfigs;

/** Where the email wizard edits a saved config. */
export const editConfigPath = (configId: string, machineId?: string) =>
  `/email?${new URLSearchParams({ ...(machineId === undefined ? {} : { machine: machineId }), config: configId }).toString()}`;

/**
 * The firm's own email configurations, on no device (issue 43): a firm without a PC keeps them here,
 * edits and deletes them, and any of its robots (the server's included) sends its result with one.
 */
export function FirmConfigs() {
  const titleId = useId();
  const toast = useToast();
  const configs = useFirmConfigsQuery();
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

  let list;
  if (configs.isLoading) list = <Spinner label={firm.loading} />;
  else if (configs.isError)
    list = (
      <div role="alert" className="ui-inline-error">
        <p>{firm.failed}</p>
        <Button variant="ghost" onClick={() => void configs.refetch()}>{workspace.retry}</Button>
      </div>
    );
  else if (!configs.data || configs.data.length === 0) list = <p className="ui-muted workspace-group__empty">{firm.empty}</p>;
  else
    list = (
      <ul className="workspace-configs__list" aria-label={firm.listLabel}>
        {configs.data.map((config) => (
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
              {config.error === null && (
                <Link className="ui-button ui-button--ghost" to={editConfigPath(config._id)} aria-label={text.editLabel(config.name)}>
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
    );

  return (
    <section className="workspace-configs workspace-firm-configs" aria-labelledby={titleId}>
      <div>
        <h2 id={titleId} className="workspace-group__title">{firm.title}</h2>
        <p className="ui-muted workspace-note">{firm.intro}</p>
      </div>
      {list}
      <div>
        <Link className="ui-button ui-button--secondary" to="/email">
          <IconMail size={18} />
          <span className="ui-button__label">{firm.create}</span>
        </Link>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        title={text.confirmTitle}
        text={confirming ? text.confirmText(confirming.name) : ''}
        confirmLabel={text.remove}
        busy={deleting}
        onConfirm={() => confirming && void remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
