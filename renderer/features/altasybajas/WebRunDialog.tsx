import { Link } from 'react-router-dom';
import { ALTAS_A3_FLOW_ID, ALTAS_RED_FLOW_ID } from '#shared/altas/runs.ts';
import { useMachinesQuery } from '../../api/machines.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { launchableMachines, launcherHref } from './altasModel.ts';

const web = text.desktop.web;

/**
 * Issue 44 (3): in the browser RED and A3 cannot be reached from this computer. With a linked office
 * machine (the user's or one the firm shares) the dialog leads to the flow's launcher with that machine
 * chosen, as a remote launch; with none, the install steps and the link to Mis recursos. For RED, it also
 * points to 'Marcar como registrada' for an alta filed by other means.
 */
export function WebRunDialog({ kind, onClose }: { kind: 'red' | 'a3'; onClose: () => void }) {
  const machines = useMachinesQuery();
  const flowId = kind === 'red' ? ALTAS_RED_FLOW_ID : ALTAS_A3_FLOW_ID;
  const linked = launchableMachines(machines.data ?? []);
  return (
    <Modal
      open
      size="small"
      title={kind === 'red' ? web.redTitle : web.a3Title}
      onClose={onClose}
      footer={<Button variant="secondary" onClick={onClose}>{web.close}</Button>}
    >
      <div className="altas-dialog">
        <p className="altas-web__intro">{kind === 'red' ? web.redIntro : web.a3Intro}</p>
        {machines.isLoading ? (
          <div className="altas-loading" role="status">
            <Spinner size="small" decorative />
            <span>{web.loadingMachines}</span>
          </div>
        ) : machines.isError ? (
          <p className="altas-field__error" role="alert">{web.machinesFailed}</p>
        ) : linked.length > 0 ? (
          <section className="altas-dialog__group" aria-labelledby="altas-web-machines">
            <h3 id="altas-web-machines" className="altas-web__title">{web.machinesTitle}</h3>
            <p className="ui-muted altas-web__text">{kind === 'red' ? web.machinesIntro : web.a3MachinesIntro}</p>
            <ul className="altas-web__machines">
              {linked.map((machine) => (
                <li key={machine._id}>
                  <Link className="ui-button ui-button--primary" to={launcherHref(flowId, machine._id)}>
                    <span className="ui-button__label">{web.machineLink(machine.savedAs || machine.name)}</span>
                  </Link>
                  <span className="ui-muted altas-web__status">{machine.online ? web.online : web.offline}</span>
                </li>
              ))}
            </ul>
          </section>
        ) : (
          <section className="altas-dialog__group" aria-labelledby="altas-web-install">
            <h3 id="altas-web-install" className="altas-web__title">{web.installTitle}</h3>
            <ol className="altas-web__steps">
              {web.installSteps.map((step) => <li key={step}>{step}</li>)}
            </ol>
            <Link to="/workspace">{web.installLink}</Link>
          </section>
        )}
        {kind === 'red' && (
          <section className="altas-dialog__group" aria-labelledby="altas-web-by-hand">
            <h3 id="altas-web-by-hand" className="altas-web__title">{web.byHandTitle}</h3>
            <p className="ui-muted altas-web__text">{web.byHandText}</p>
          </section>
        )}
      </div>
    </Modal>
  );
}
