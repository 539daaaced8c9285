import { useId } from 'react';
import { Link } from 'react-router-dom';
import { useFirmConfigsQuery } from '../../api/machines.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, IconMail, Spinner } from '../../ui/index.ts';
import { ConfigList } from './ConfigList.tsx';

const firm = workspace.firmConfigs;

/**
 * The firm's own email configurations, on no device (issue 43): a firm without a PC keeps them here,
 * edits and deletes them, and any of its robots (the server's included) sends its result with one.
 */
export function FirmConfigs() {
  const titleId = useId();
  const configs = useFirmConfigsQuery();

  let list;
  if (configs.isLoading) list = <Spinner label={firm.loading} />;
  else if (configs.isError)
    list = (
      <div role="alert" className="ui-inline-error">
        <p>{firm.failed}</p>
        <Button variant="ghost" onClick={() => void configs.refetch()}>{workspace.retry}</Button>
      </div>
    );
  else list = <ConfigList configs={configs.data ?? []} label={firm.listLabel} empty={<p className="ui-muted workspace-group__empty">{firm.empty}</p>} />;

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
    </section>
  );
}
