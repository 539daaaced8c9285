import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useFirmConfigsQuery, useMachinesQuery } from '../../api/machines.ts';
import { useMailAccountsQuery } from '../../api/mail.ts';
import { mail } from '../../i18n/es-mail.ts';
import { Button, EmptyState, IconAlert, IconChevronLeft, IconChevronRight, IconMail, IconMonitor, PageHeader, Spinner } from '../../ui/index.ts';
import { AccountStep } from './AccountStep.tsx';
import { WIZARD_STEPS, chosenAccount, clearDraft, draftFromConfig, initialDraft, loadDraft, validateMessage } from './draft.ts';
import type { MessageErrors, MessageField, WizardDraft, WizardStep } from './draft.ts';
import { MachinePicker } from './MachinePicker.tsx';
import { MessageStep } from './MessageStep.tsx';
import { SummaryStep } from './SummaryStep.tsx';
import { WizardSteps } from './WizardSteps.tsx';
import './email.css';

/**
 * A draft brought back from /oauth-response (web linking: ?linked= names the new account, and the
 * wizard goes on to the review with it), else a fresh one on ?machine= (none: the firm's own config).
 */
function startingDraft(machineParam: string | null, linkedParam: string | null): WizardDraft {
  const restored = loadDraft();
  const draft = restored === null ? initialDraft(machineParam) : { ...restored, machineId: restored.machineId ?? machineParam };
  if (linkedParam === null) return draft;
  return { ...draft, accountId: linkedParam, step: restored === null ? draft.step : 'summary' };
}

/**
 * /email 'Configuración de correo' (spec §2 Email configuration wizard, §4: custom → auth → summary):
 * where it is kept (the whole firm, or a device: chosen before step 1, issue 43), the message and its
 * CCCs, the linked account it goes from, and a review that saves it. ?config= edits a saved one.
 */
export default function EmailWizardPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const machineParam = params.get('machine');
  const configParam = params.get('config');
  const [draft, setDraft] = useState<WizardDraft>(() => startingDraft(machineParam, params.get('linked')));
  const [errors, setErrors] = useState<MessageErrors>({});
  const [machineError, setMachineError] = useState<string | undefined>(undefined);
  const [errorAttempt, setErrorAttempt] = useState(0);
  const machines = useMachinesQuery();
  const firmConfigs = useFirmConfigsQuery();
  const accounts = useMailAccountsQuery();
  const pageRef = useRef<HTMLElement>(null);

  // The draft has been taken: a reload starts afresh rather than replaying an old OAuth return.
  useEffect(() => clearDraft(), []);

  // Editing (?config=): the saved config fills the draft once it and the accounts are known.
  const waitingForConfig = configParam !== null && draft.configId === null;
  const editedFirm = firmConfigs.data?.find((config) => config._id === configParam);
  const editedMachine = machines.data?.find((candidate) => candidate.configs.some((config) => config._id === configParam));
  const editedConfig = editedFirm ?? editedMachine?.configs.find((config) => config._id === configParam);
  const editLoaded = !machines.isLoading && !firmConfigs.isLoading && !accounts.isLoading;
  useEffect(() => {
    if (!waitingForConfig || !editLoaded || editedConfig === undefined) return;
    setDraft(draftFromConfig(editedConfig, editedFirm ? null : (editedMachine?._id ?? null), accounts.data));
  }, [waitingForConfig, editLoaded, editedConfig, editedFirm, editedMachine, accounts.data]);

  // Focus follows the step; on a fresh start the page title comes first, but a wizard brought back
  // from the provider's page puts the user at the step it resumes.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const stepChanged = useRef(draft.step !== 'custom');
  useEffect(() => {
    if (!stepChanged.current) return;
    headingRef.current?.focus();
  }, [draft.step]);

  // 'Siguiente' refused (spec §5): the first field with an error comes into view and takes the focus.
  useEffect(() => {
    if (errorAttempt === 0) return;
    const first = pageRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.scrollIntoView?.({ block: 'center' });
    first.focus({ preventScroll: true });
  }, [errorAttempt]);

  const machine = draft.machineId === null ? null : (machines.data?.find((candidate) => candidate._id === draft.machineId) ?? null);
  /** A device named (by ?machine=, or a draft) that is not there: nothing can be saved on it. */
  const unknownMachine = draft.machineId !== null && machines.data !== undefined && machine === null;
  const account = chosenAccount(draft, accounts.data);
  const index = WIZARD_STEPS.indexOf(draft.step);
  const editing = draft.configId !== null || configParam !== null;

  const goTo = (step: WizardStep) => {
    stepChanged.current = true;
    setDraft((current) => ({ ...current, step }));
  };

  const next = () => {
    if (draft.step === 'custom') {
      const found = validateMessage(draft.fields);
      setErrors(found);
      setMachineError(unknownMachine ? mail.machine.unknown : undefined);
      if (Object.keys(found).length > 0 || unknownMachine) {
        setErrorAttempt((count) => count + 1);
        return;
      }
    }
    const following = WIZARD_STEPS[index + 1];
    if (following) goTo(following);
  };

  const change = (field: MessageField, value: string) => {
    setDraft((current) => ({ ...current, fields: { ...current.fields, [field]: value } }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const header = <PageHeader title={editing ? mail.editTitle : mail.title} subtitle={mail.subtitle} onBack={() => navigate('/workspace')} backLabel={mail.back} />;
  if (waitingForConfig) {
    return (
      <main className="ui-page email-wizard">
        {header}
        {!editLoaded ? (
          <Spinner />
        ) : machines.isError || firmConfigs.isError ? (
          <div role="alert" className="email-alert">
            <IconAlert size={18} />
            <p>{mail.machine.loadFailed}</p>
            <Button variant="secondary" onClick={() => void Promise.all([machines.refetch(), firmConfigs.refetch()])}>{mail.machine.retry}</Button>
          </div>
        ) : (
          <EmptyState icon={<IconMail />} title={mail.configMissing} headingLevel={2} action={<Button variant="secondary" onClick={() => navigate('/email')}>{mail.title}</Button>} />
        )}
      </main>
    );
  }

  const placeName = (name: string) => (
    <p className="email-machine-name">
      <IconMonitor size={18} />
      <span>{mail.machine.where}: <strong>{name}</strong></span>
    </p>
  );
  let machineArea = null;
  if (machines.isLoading) machineArea = <Spinner />;
  else if (machines.isError)
    machineArea = (
      <div role="alert" className="email-alert">
        <IconAlert size={18} />
        <p>{mail.machine.loadFailed}</p>
        <Button variant="secondary" onClick={() => void machines.refetch()}>{mail.machine.retry}</Button>
      </div>
    );
  else if (draft.configId !== null || (machineParam !== null && machine !== null))
    // Editing keeps a config where it is; a device's card opens the wizard on that device.
    machineArea = placeName(machine ? machine.savedAs || machine.name : mail.machine.firmShort);
  else if (machines.data && machines.data.length === 0)
    // No device: the firm's own config, said before step 1 (issue 43).
    machineArea = (
      <div className="email-machine">
        {placeName(mail.machine.firmShort)}
        <p className="ui-muted email-note">{mail.machine.firmHint}</p>
      </div>
    );
  else if (machines.data)
    machineArea = (
      <MachinePicker
        machines={machines.data}
        value={draft.machineId}
        error={machineError ?? (unknownMachine ? mail.machine.unknown : undefined)}
        onChange={(machineId) => {
          setDraft((current) => ({ ...current, machineId }));
          setMachineError(undefined);
        }}
      />
    );

  return (
    <main className="ui-page email-wizard" ref={pageRef}>
      {header}
      {machineArea}
      <WizardSteps current={draft.step} />
      {draft.step === 'custom' && <MessageStep fields={draft.fields} errors={errors} onChange={change} headingRef={headingRef} />}
      {draft.step === 'auth' && (
        <AccountStep draft={draft} headingRef={headingRef} onSelect={(accountId) => setDraft((current) => ({ ...current, accountId }))} />
      )}
      {draft.step === 'summary' && (
        <SummaryStep
          fields={draft.fields}
          machine={machine}
          firm={draft.machineId === null}
          configId={draft.configId}
          account={account}
          headingRef={headingRef}
          onSaved={clearDraft}
        />
      )}
      <div className="email-nav">
        {index > 0 && (
          <Button variant="secondary" icon={<IconChevronLeft size={18} />} onClick={() => goTo(WIZARD_STEPS[index - 1] ?? 'custom')}>
            {mail.previous}
          </Button>
        )}
        {index < WIZARD_STEPS.length - 1 && (
          <Button className="email-nav__next" onClick={next}>
            {mail.next}
            <IconChevronRight size={18} />
          </Button>
        )}
      </div>
    </main>
  );
}
