import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useMachinesQuery } from '../../api/machines.ts';
import { useMailAccountsQuery } from '../../api/mail.ts';
import { mail } from '../../i18n/es-mail.ts';
import { Button, EmptyState, IconAlert, IconChevronLeft, IconChevronRight, IconMonitor, PageHeader, Spinner } from '../../ui/index.ts';
import { AccountStep } from './AccountStep.tsx';
import { WIZARD_STEPS, chosenAccount, clearDraft, initialDraft, loadDraft, validateMessage } from './draft.ts';
import type { MessageErrors, MessageField, WizardDraft, WizardStep } from './draft.ts';
import { MachinePicker } from './MachinePicker.tsx';
import { MessageStep } from './MessageStep.tsx';
import { SummaryStep } from './SummaryStep.tsx';
import { WizardSteps } from './WizardSteps.tsx';
import './email.css';

/**
 * A draft brought back from /oauth-response (web linking: ?linked= names the new account, and the
 * wizard goes on to the review with it), else a fresh one on ?machine=.
 */
function startingDraft(machineParam: string | null, linkedParam: string | null): WizardDraft {
  const restored = loadDraft();
  const draft = restored === null ? initialDraft(machineParam) : { ...restored, machineId: restored.machineId ?? machineParam };
  if (linkedParam === null) return draft;
  return { ...draft, accountId: linkedParam, step: restored === null ? draft.step : 'summary' };
}

/**
 * /email 'Configuración de correo' (spec §2 Email configuration wizard, §4: custom → auth → summary):
 * the message, the linked account it goes from, and a review that saves it as a config of the machine
 * named by ?machine= (or picked here).
 */
export default function EmailWizardPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const machineParam = params.get('machine');
  const [draft, setDraft] = useState<WizardDraft>(() => startingDraft(machineParam, params.get('linked')));
  const [errors, setErrors] = useState<MessageErrors>({});
  const [machineError, setMachineError] = useState<string | undefined>(undefined);
  const machines = useMachinesQuery();
  const accounts = useMailAccountsQuery();

  // The draft has been taken: a reload starts afresh rather than replaying an old OAuth return.
  useEffect(() => clearDraft(), []);

  // Focus follows the step; on a fresh start the page title comes first, but a wizard brought back
  // from the provider's page puts the user at the step it resumes.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const stepChanged = useRef(draft.step !== 'custom');
  useEffect(() => {
    if (!stepChanged.current) return;
    headingRef.current?.focus();
  }, [draft.step]);

  const machine = machines.data?.find((candidate) => candidate._id === draft.machineId) ?? null;
  const account = chosenAccount(draft, accounts.data);
  const index = WIZARD_STEPS.indexOf(draft.step);

  const goTo = (step: WizardStep) => {
    stepChanged.current = true;
    setDraft((current) => ({ ...current, step }));
  };

  const next = () => {
    if (draft.step === 'custom') {
      const found = validateMessage(draft.fields);
      const noMachine = machines.data !== undefined && machines.data.length > 0 && machine === null;
      setErrors(found);
      setMachineError(noMachine ? mail.machine.required : undefined);
      if (Object.keys(found).length > 0 || noMachine) return;
    }
    const following = WIZARD_STEPS[index + 1];
    if (following) goTo(following);
  };

  const change = (field: MessageField, value: string) => {
    setDraft((current) => ({ ...current, fields: { ...current.fields, [field]: value } }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

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
  else if (machines.data && machines.data.length === 0)
    machineArea = (
      <EmptyState icon={<IconMonitor />} title={mail.machine.none} text={mail.machine.noneText} headingLevel={2} action={<Link to="/workspace">{mail.back}</Link>} />
    );
  else if (machines.data && (machineParam === null || machine === null))
    machineArea = (
      <MachinePicker
        machines={machines.data}
        value={machine?._id ?? null}
        error={machineError ?? (draft.machineId !== null && machine === null ? mail.machine.unknown : undefined)}
        onChange={(machineId) => {
          setDraft((current) => ({ ...current, machineId }));
          setMachineError(undefined);
        }}
      />
    );
  else if (machine)
    machineArea = (
      <p className="email-machine-name">
        <IconMonitor size={18} />
        <span>{mail.machine.label}: <strong>{machine.savedAs || machine.name}</strong></span>
      </p>
    );

  return (
    <main className="ui-page email-wizard">
      <PageHeader title={mail.title} subtitle={mail.subtitle} onBack={() => navigate('/workspace')} backLabel={mail.back} />
      {machineArea}
      <WizardSteps current={draft.step} />
      {draft.step === 'custom' && <MessageStep fields={draft.fields} errors={errors} onChange={change} headingRef={headingRef} />}
      {draft.step === 'auth' && (
        <AccountStep draft={draft} headingRef={headingRef} onSelect={(accountId) => setDraft((current) => ({ ...current, accountId }))} />
      )}
      {draft.step === 'summary' && (
        <SummaryStep fields={draft.fields} machine={machine} account={account} headingRef={headingRef} onSaved={clearDraft} />
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
