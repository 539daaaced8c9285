import type { Machine } from '#shared/api/machines.ts';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import { useBridge, useEmbedded, usePrompt } from '../../../app/hooks.ts';
import type { BridgeClient, CertificateChoice } from '../../../app/hooks.ts';
import { machinesApi } from '../../../api/machines.ts';
import { launcher } from '../../../i18n/es-launcher.ts';
import { Button } from '../../../ui/Button.tsx';
import { certificateProblem, certificateWarning, chosenCertificate } from '../launcherModel.ts';
import type { ChosenCertificate } from '../launcherModel.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { PickerField, usePicker } from './PickerField.tsx';

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
        value: { fingerprint: certificate.fingerprint, commonName: certificate.commonName, nifVat: certificate.nifVat, notAfter: certificate.notAfter },
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
        value: { fingerprint: synced.fingerprint, commonName: synced.subject.CN, nifVat: synced.nifVat, machineId: machine._id, machineName, notAfter: synced.notAfter },
      }));
    });
  return { ok: true, offer: { choices, note: text.sharedNote, emptyText: text.noShared } };
}

/** A desktop flow on another machine: the certificates synced on that machine, where the robot will run. */
function machineOffer(machine: Machine): OfferResult {
  const machineName = machine.savedAs || machine.name;
  const choices = machine.certificates.map((synced) => ({
    choice: { id: `${machine._id}:${synced.fingerprint}`, name: synced.subject.CN, certificate: { ...synced, commonName: synced.subject.CN } },
    value: { fingerprint: synced.fingerprint, commonName: synced.subject.CN, nifVat: synced.nifVat, machineId: machine._id, machineName, notAfter: synced.notAfter },
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
  const { flow, form, setText, touch, device } = launcherForm;
  const embedded = useEmbedded();
  const bridge = useBridge();
  const prompt = usePrompt();
  const [loadMachines] = machinesApi.endpoints.machines.useLazyQuery();
  const picker = usePicker(input, launcherForm);
  const { id, key, error, busy } = picker;
  const chosen = chosenCertificate(form.watch(key));
  const warning = certificateWarning(chosen, new Date());
  form.register(key);

  const choose = async (): Promise<string | undefined> => {
    let result: OfferResult;
    if (thisDeviceOnly) {
      if (flow.runsOn === 'desktop' && device.chosen !== null && !device.chosen.thisDevice) return text.thisDeviceOnly;
      result = await localOffer(bridge);
    } else if (flow.runsOn === 'desktop') {
      const where = device.chosen;
      if (where === null) return text.chooseDeviceFirst;
      result = where.thisDevice ? await localOffer(bridge) : machineOffer(where.machine);
    } else {
      result = embedded ? await localOffer(bridge) : await sharedOffer(() => loadMachines().unwrap());
    }
    if (!result.ok) return result.message;
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
    // An expired certificate is not taken: the portal would refuse it, so the launcher says so now.
    const expired = picked ? certificateProblem(picked.value, new Date()) : undefined;
    if (expired !== undefined) {
      touch(key);
      return expired;
    }
    if (picked) setText(key, JSON.stringify(picked.value));
    else touch(key);
    return undefined;
  };

  return (
    <PickerField
      input={input}
      picker={picker}
      className="launcher-certificate"
      chosen={
        <p className="launcher-certificate__chosen" id={`${id}-chosen`}>
          {chosen ? (
            <>
              <strong>{text.chosen(chosen.commonName, chosen.nifVat)}</strong>
              {chosen.machineName && <span className="ui-muted"> {text.onMachine(chosen.machineName)}</span>}
              {warning && <span className="launcher-certificate__warning" role="status"> {warning}</span>}
            </>
          ) : (
            <span className="ui-muted">{text.none}</span>
          )}
        </p>
      }
    >
      <Button
        variant="secondary"
        onClick={() => void picker.pick(choose)}
        loading={busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-chosen${error ? ` ${id}-error` : ''}`}
      >
        {busy ? text.loading : chosen ? text.change : text.choose}
      </Button>
    </PickerField>
  );
}
