import { useId, useState } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import { useBridge, useEmbedded, usePrompt } from '../../../app/hooks.ts';
import type { BridgeClient, CertificateChoice } from '../../../app/hooks.ts';
import { machinesApi } from '../../../api/machines.ts';
import { launcher } from '../../../i18n/es-launcher.ts';
import { Button } from '../../../ui/Button.tsx';
import { chosenCertificate } from '../launcherModel.ts';
import type { ChosenCertificate } from '../launcherModel.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { FieldMessage } from './FieldMessage.tsx';

const text = launcher.inputs.certificate;

/** What the picker offers: its rows, and the value each row stands for. */
interface Offer {
  choices: { choice: CertificateChoice; value: ChosenCertificate }[];
  note?: string;
  emptyText?: string;
}

type OfferResult = { ok: true; offer: Offer } | { ok: false; message: string };

/** The desktop app: the certificates in this PC's store and .p12 folder, read by the bridge now. */
async function localOffer(bridge: BridgeClient): Promise<OfferResult> {
  const result = await bridge.invoke('GetCertificatesList', {});
  if (!result.ok) return { ok: false, message: result.error.message };
  const { certificates, problems } = result.data;
  return {
    ok: true,
    offer: {
      choices: certificates.map((certificate, index) => ({
        // One certificate may sit in the store and in a .p12 file: the position keeps rows apart.
        choice: { id: `${index}:${certificate.fingerprint}`, name: certificate.commonName, certificate },
        value: { fingerprint: certificate.fingerprint, commonName: certificate.commonName, nifVat: certificate.nifVat },
      })),
      note: problems.length > 0 ? text.unreadable(problems.map((problem) => problem.message).join(' ')) : undefined,
    },
  };
}

/** The web app: the certificates synced on the firm's shared machines, under each machine's name. */
async function sharedOffer(loadMachines: () => Promise<Machine[]>): Promise<OfferResult> {
  let machines: Machine[];
  try {
    machines = await loadMachines();
  } catch {
    return { ok: false, message: text.sharedFailed };
  }
  const choices = machines
    .filter((machine) => machine.shared)
    .flatMap((machine) => {
      const machineName = machine.savedAs || machine.name;
      return machine.certificates.map((synced) => ({
        choice: {
          id: `${machine._id}:${synced.fingerprint}`,
          name: synced.subject.CN,
          machineName,
          certificate: { ...synced, commonName: synced.subject.CN },
        },
        value: { fingerprint: synced.fingerprint, commonName: synced.subject.CN, nifVat: synced.nifVat, machineId: machine._id, machineName },
      }));
    });
  return { ok: true, offer: { choices, note: text.sharedNote, emptyText: text.noShared } };
}

/** A desktop flow on another machine: the certificates synced on that machine, where the robot will run. */
function machineOffer(machine: Machine): OfferResult {
  const machineName = machine.savedAs || machine.name;
  const choices = machine.certificates.map((synced) => ({
    choice: { id: `${machine._id}:${synced.fingerprint}`, name: synced.subject.CN, certificate: { ...synced, commonName: synced.subject.CN } },
    value: { fingerprint: synced.fingerprint, commonName: synced.subject.CN, nifVat: synced.nifVat, machineId: machine._id, machineName },
  }));
  return { ok: true, offer: { choices, note: text.machineNote(machineName), emptyText: text.noneOnMachine } };
}

/**
 * A Certificate input (spec §5: 'Necesitas seleccionar un certificado para continuar.'). A desktop
 * flow's picker lists the chosen device's certificates: this PC's own, or those synced on the other
 * machine. A server flow's lists this PC's in the desktop app, and in the web app those synced on the
 * firm's shared machines. `thisDeviceOnly` (config.embedded, desktop app) lists this PC's alone, and
 * none while a desktop flow is set to run elsewhere. The value is the certificate's fingerprint, with
 * its name, NIF and machine to show.
 */
export function CertificateInput({ input, launcherForm, thisDeviceOnly = false }: { input: FlowInputDefinition; launcherForm: LauncherForm; thisDeviceOnly?: boolean }) {
  const { flow, form, rules, setText, touch, device } = launcherForm;
  const embedded = useEmbedded();
  const bridge = useBridge();
  const prompt = usePrompt();
  const [loadMachines] = machinesApi.endpoints.machines.useLazyQuery();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();
  const key = input.key;
  const rule = rules[key] ?? {};
  const error = form.errors[key];
  const chosen = chosenCertificate(form.watch(key));
  form.register(key);

  const choose = async () => {
    setBusy(true);
    setFailure(null);
    try {
      let result: OfferResult;
      if (thisDeviceOnly) {
        if (flow.runsOn === 'desktop' && device.chosen !== null && !device.chosen.thisDevice) {
          setFailure(text.thisDeviceOnly);
          return;
        }
        result = await localOffer(bridge);
      } else if (flow.runsOn === 'desktop') {
        const where = device.chosen;
        if (where === null) {
          setFailure(text.chooseDeviceFirst);
          return;
        }
        result = where.thisDevice ? await localOffer(bridge) : machineOffer(where.machine);
      } else {
        result = embedded ? await localOffer(bridge) : await sharedOffer(() => loadMachines().unwrap());
      }
      if (!result.ok) {
        setFailure(result.message);
        return;
      }
      const { choices, note, emptyText } = result.offer;
      const current = choices.find(({ value }) => value.fingerprint === chosen?.fingerprint && value.machineId === chosen.machineId);
      const answer = await prompt.certificate({
        title: text.pickerTitle(input.label),
        certificates: choices.map(({ choice }) => choice),
        note,
        emptyText,
        selectedIds: current ? [current.choice.id] : [],
      });
      const picked = answer && choices.find(({ choice }) => choice.id === answer.id);
      if (picked) setText(key, JSON.stringify(picked.value));
      else touch(key);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={`launcher-input launcher-certificate${error ? ' launcher-input--invalid' : ''}`} role="group" aria-labelledby={`${id}-label`}>
      <span className="app-field__label" id={`${id}-label`}>{rule.required ? `${input.label} *` : input.label}</span>
      {input.help && <p className="ui-muted launcher-input__help">{input.help}</p>}
      <p className="launcher-certificate__chosen" id={`${id}-chosen`}>
        {chosen ? (
          <>
            <strong>{text.chosen(chosen.commonName, chosen.nifVat)}</strong>
            {chosen.machineName && <span className="ui-muted"> {text.onMachine(chosen.machineName)}</span>}
          </>
        ) : (
          <span className="ui-muted">{text.none}</span>
        )}
      </p>
      <div className="launcher-certificate__actions">
        <Button
          variant="secondary"
          onClick={() => void choose()}
          loading={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-chosen${error ? ` ${id}-error` : ''}`}
        >
          {busy ? text.loading : chosen ? text.change : text.choose}
        </Button>
        {failure && <span role="alert" className="launcher-input__failure">{failure}</span>}
      </div>
      <FieldMessage id={`${id}-error`} error={error} rule={rule} />
    </div>
  );
}
