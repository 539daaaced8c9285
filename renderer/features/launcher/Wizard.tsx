import { lazy, Suspense, useState } from 'react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { SCHEDULE_FAILED_MESSAGE } from '#shared/api/flows.ts';
import type { NotEnoughCredits, Output } from '#shared/api/flows.ts';
import { measureUnitNames } from '#shared/flows/definition.ts';
import type { FlowDefinition, Section } from '#shared/flows/definition.ts';
import type { ScheduleRequestTiming } from '#shared/schedule/index.ts';
import { formatMadridDateTime } from '#shared/time/index.ts';
import { useCreateScheduleMutation } from '../../api/flows.ts';
import { useBridge, useEmbedded, useToast } from '../../app/hooks.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { Button } from '../../ui/Button.tsx';
import { CostEstimate } from './CostEstimate.tsx';
import { CreditsPrompt } from './CreditsPrompt.tsx';
import { DeviceField } from './inputs/DeviceField.tsx';
import { InputFields } from './inputs/InputFields.tsx';
import {
  allInputs, deviceSection, fillableHere, isWorkbookName, loadingSection, nextSection, previousSection, requestInputs,
  resetSection, sectionByRef, shownInputs, startSection, transitionFor, uploadedFiles, visibleSections,
} from './launcherModel.ts';
import type { ErrorKind, Transition } from './launcherModel.ts';
import { ConsolePanel, ErrorSection, LoadingSection, OutputSection, TutorialSection } from './Sections.tsx';
import type { RunProblem } from './Sections.tsx';
import { useLauncherForm } from './useLauncherForm.ts';
import { useRun } from './useRun.ts';
import type { LaunchDevice, LaunchOutcome } from './useRun.ts';
import { useThisDeviceLink } from '../../api/useThisDeviceLink.ts';

// The scheduler brings the calendar (react-day-picker): it loads when it is first opened.
const loadScheduler = () => import('./SchedulerModal.tsx');
const SchedulerModal = lazy(() => loadScheduler().then((module) => ({ default: module.SchedulerModal })));

const INPUT_TEMPLATES: readonly Section['template'][] = ['InputComponents', 'IntrastatSetup', 'TutorialSection'];
const ERROR_KINDS: readonly ErrorKind[] = ['result', 'timeout', 'default'];

interface WizardProps {
  flow: FlowDefinition;
  currencies?: string;
  /** Back from the first section: the previous page. */
  onLeave: () => void;
}

/**
 * The launcher's steps (spec §4 Flow launcher): sections from the flow's setup, Next and Back between
 * them, the launch and its progress, and where the run's status leads (router, output, error, the
 * credits prompt), Repeat, the console and the scheduler.
 */
export function Wizard({ flow, currencies, onLeave }: WizardProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const bridge = useBridge();
  const embedded = useEmbedded();
  const launcherForm = useLauncherForm(flow);
  const { form, validate, uploading, device } = launcherForm;
  const run = useRun();
  const linkThisDevice = useThisDeviceLink();
  const askDevice = deviceSection(flow);
  const [createSchedule] = useCreateScheduleMutation();

  // null: no section to show (the fallback text).
  const [currentRef, setCurrentRef] = useState<string | null>(() => startSection(flow)?.ref ?? null);
  const [output, setOutput] = useState<Output | null>(null);
  const [problem, setProblem] = useState<RunProblem | null>(null);
  const [launchedFrom, setLaunchedFrom] = useState<Section | null>(null);
  const [creditsPrompt, setCreditsPrompt] = useState<{ credits: NotEnoughCredits | null; from: Section } | null>(null);
  const [consoleOpen, setConsoleOpen] = useState(false);
  const [schedulerOpen, setSchedulerOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const section = sectionByRef(flow, currentRef ?? undefined);
  const running = run.progress.phase === 'starting' || run.progress.phase === 'running';

  /** Checks every input the user can fill, section by section; shows the first section with errors. */
  const validateAll = async (): Promise<boolean> => {
    if (uploading.size > 0) {
      setNotice(text.inputs.waitForUpload);
      return false;
    }
    if (!device.check()) {
      if (askDevice) setCurrentRef(askDevice.ref);
      return false;
    }
    const current = section ? keysOf(section, embedded) : [];
    if (!(await validate(current))) return false;
    for (const candidate of visibleSections(flow)) {
      const keys = keysOf(candidate, embedded);
      if (keys.length === 0 || candidate.ref === section?.ref) continue;
      if (!(await form.trigger(keys))) {
        setCurrentRef(candidate.ref);
        return false;
      }
    }
    return true;
  };

  const apply = (transition: Transition, from: Section, found: RunProblem | null, credits: NotEnoughCredits | null) => {
    if (transition.kind === 'creditsPrompt') {
      setCurrentRef(from.ref);
      setCreditsPrompt({ credits, from });
      return;
    }
    if (transition.kind === 'fallback') {
      setProblem(found);
      setCurrentRef(null);
      return;
    }
    const target = sectionByRef(flow, transition.ref);
    const fixedKind = target?.params?.['type'];
    const kind = ERROR_KINDS.find((each) => each === fixedKind) ?? transition.errorKind ?? 'default';
    setProblem(found ? { ...found, kind } : null);
    setCurrentRef(transition.ref);
  };

  const settle = (outcome: LaunchOutcome, from: Section) => {
    if (outcome.kind === 'abandoned') return;
    if (outcome.kind === 'output') {
      const finished = outcome.output;
      setOutput(finished);
      const found = finished.status === 200 ? null : { kind: 'default' as const, status: finished.status, message: finished.data.message };
      apply(transitionFor(flow, from, finished.status), from, found, null);
      return;
    }
    // The launch itself was refused, or got no answer (status 0 / 408: Reintentar re-sends it).
    const noAnswer = outcome.status === 0 || outcome.status === 408;
    const found: RunProblem = noAnswer
      ? { kind: 'default', status: outcome.status, message: text.errors.connection, retryable: true }
      : { kind: 'default', status: outcome.status, message: outcome.message, issues: outcome.issues };
    apply(transitionFor(flow, from, outcome.status), from, found, outcome.credits);
  };

  /**
   * A desktop flow's machine for the launch: on this PC, linked first (silently; a failure is shown on
   * the step and nothing is launched); another machine as chosen. Null when it cannot launch.
   */
  const launchDevice = async (): Promise<LaunchDevice | undefined | null> => {
    const where = device.chosen;
    if (!device.needed) return undefined;
    if (where === null) {
      device.check();
      return null;
    }
    if (!where.thisDevice) return { machineId: where.machine._id, machineName: where.name, online: where.connection === 'online', localLaunch: false };
    setNotice(text.device.linking);
    const linked = await linkThisDevice();
    setNotice(null);
    if (!linked.ok) {
      setProblem({ kind: 'default', status: 0, message: text.device.linkFailed(linked.message) });
      return null;
    }
    return { machineId: linked.machine._id, machineName: linked.machine.name, online: true, localLaunch: true };
  };

  const launch = async (from: Section, options: { acceptExtraUsage?: boolean; retry?: boolean } = {}) => {
    setNotice(null);
    setCreditsPrompt(null);
    setOutput(null);
    setProblem(null);
    setConsoleOpen(false);
    const target = await launchDevice();
    if (target === null) return;
    setLaunchedFrom(from);
    const loading = loadingSection(flow);
    if (loading) setCurrentRef(loading.ref);
    const outcome = await run.launch({
      flowId: flow.id, flowName: flow.name, step: from.ref, inputs: requestInputs(flow, form.getValues(), embedded), ...options,
      ...(target ? { device: target } : {}),
    });
    settle(outcome, from);
  };

  const next = async () => {
    if (!section) return;
    setNotice(null);
    if (section.execution === true) {
      if (await validateAll()) await launch(section);
      return;
    }
    if (uploading.size > 0) {
      setNotice(text.inputs.waitForUpload);
      return;
    }
    const deviceMissing = section.ref === askDevice?.ref && !device.check();
    if (!(await validate(keysOf(section, embedded))) || deviceMissing) return;
    const following = nextSection(flow, section.ref);
    if (following) setCurrentRef(following.ref);
  };

  const back = () => {
    setNotice(null);
    const previous = section ? previousSection(flow, section.ref) : undefined;
    if (previous) setCurrentRef(previous.ref);
    else onLeave();
  };

  const repeat = () => {
    run.reset();
    setOutput(null);
    setProblem(null);
    setConsoleOpen(false);
    setNotice(null);
    setCurrentRef(resetSection(flow)?.ref ?? null);
  };

  const openScheduler = async () => {
    setNotice(null);
    if (await validateAll()) setSchedulerOpen(true);
  };

  const schedule = async (timing: ScheduleRequestTiming): Promise<boolean> => {
    // A desktop flow is scheduled on its machine (this PC linked first), whose autopilot launches it.
    const target = await launchDevice();
    if (target === null) return false;
    const machine = target ? { machine: target.machineId } : {};
    const answer = await createSchedule({ flowId: flow.id, request: { ...timing, flowInputs: requestInputs(flow, form.getValues(), embedded), ...machine } });
    if (answer.error !== undefined) {
      toast.error(SCHEDULE_FAILED_MESSAGE);
      return false;
    }
    toast.success(text.scheduler.success(formatMadridDateTime(new Date(timing.scheduledDate))));
    return true;
  };

  const workbookIds = allInputs(flow)
    .filter((input) => input.template === 'FileUpload')
    .flatMap((input) => uploadedFiles(form.watch(input.key)).filter((file) => isWorkbookName(file.name)).map((file) => file.uploadId));

  const steps = visibleSections(flow).filter((each) => INPUT_TEMPLATES.includes(each.template));
  const stepIndex = section ? steps.findIndex((each) => each.ref === section.ref) : -1;
  const consoleLines = run.progress.consoleLog;

  let body: ReactNode;
  let actions: ReactNode = null;
  if (!section) {
    body = <p className="launcher-fallback" role="alert">{text.fallback}</p>;
    actions = <Button variant="secondary" onClick={repeat}>{text.buttons.repeat}</Button>;
  } else if (section.template === 'LoadingSection' || (running && section.ref === launchedFrom?.ref)) {
    body = <LoadingSection caption={section.params?.['text']} progress={run.progress} onStop={() => void stopRun()} />;
  } else if (section.template === 'OutputSection' || section.template === 'ErrorSection') {
    body = section.template === 'OutputSection'
      ? (output ? (
        <OutputSection
          output={output}
          currencies={currencies}
          unit={measureUnitNames(flow.usageMeasureUnit)}
          folder={output.data.outputFolder ?? run.progress.outputFolder}
          onOpenFolder={run.progress.localLaunch && bridge.available ? (folder) => void openFolder(folder) : undefined}
        />
      ) : <p className="launcher-fallback">{text.fallback}</p>)
      : <ErrorSection problem={problem ?? { kind: 'default', status: 0 }} onRetry={launchedFrom ? () => void launch(launchedFrom, { retry: true }) : undefined} />;
    actions = (
      <>
        {section.backTo !== undefined && <Button variant="secondary" onClick={back}>{text.buttons.back}</Button>}
        <Button variant="secondary" aria-expanded={consoleOpen} aria-controls="launcher-console" onClick={() => setConsoleOpen((open) => !open)}>
          {consoleOpen ? text.buttons.hideConsole : text.buttons.showConsole}
        </Button>
        <Button onClick={repeat}>{text.buttons.repeat}</Button>
      </>
    );
  } else {
    body = (
      <>
        {problem && <p className="launcher-notice launcher-notice--error" role="alert">{problem.message ?? text.errors.defaultTitle}</p>}
        {section.template === 'TutorialSection' && <TutorialSection markdown={section.params?.['markdown']} />}
        {section.ref === askDevice?.ref && <DeviceField device={device} onChoose={launcherForm.chooseDevice} />}
        {section.template === 'IntrastatSetup' && <h3 className="launcher-subtitle">{text.intrastatTitle}</h3>}
        {section.template !== 'TutorialSection' && <InputFields section={section} launcherForm={launcherForm} />}
        {section.execution === true && <CostEstimate flow={flow} workbookIds={workbookIds} currencies={currencies} />}
      </>
    );
    actions = (
      <>
        <Button variant="secondary" onClick={back}>{text.buttons.back}</Button>
        {section.scheduler === true && (
          <Button variant="secondary" onPointerEnter={() => void loadScheduler()} onFocus={() => void loadScheduler()} onClick={() => void openScheduler()}>
            {text.buttons.schedule}
          </Button>
        )}
        {(section.execution === true || nextSection(flow, section.ref) !== undefined) && (
          <Button onClick={() => void next()}>{section.execution === true ? text.buttons.launch : text.buttons.next}</Button>
        )}
      </>
    );
  }

  async function stopRun() {
    if (!(await run.stop())) toast.error(text.errors.stopFailed);
  }

  async function openFolder(folder: string) {
    const opened = await bridge.invoke('OpenFolder', { folder });
    if (!opened.ok) toast.error(`${text.output.openFolderFailed}: ${opened.error.message}`);
  }

  return (
    <section className="ui-card launcher-step" aria-labelledby="launcher-step-title">
      <header className="launcher-step__head">
        {stepIndex >= 0 && steps.length > 1 && <p className="launcher-step__count ui-muted">{text.stepOf(stepIndex + 1, steps.length)}</p>}
        <h2 id="launcher-step-title" className="launcher-step__title">{section?.title ?? flow.name}</h2>
        {section?.subtitle && <p className="launcher-step__subtitle ui-muted">{section.subtitle}</p>}
      </header>
      <div className="launcher-step__body">{body}</div>
      {consoleOpen && <ConsolePanel id="launcher-console" lines={consoleLines} />}
      {/* Kept in place, empty or not, so a message appearing does not move the buttons under the pointer. */}
      <p className="launcher-notice" role="status">{notice}</p>
      {actions && <div className="launcher-actions">{actions}</div>}
      {schedulerOpen && (
        <Suspense fallback={null}>
          <SchedulerModal open onClose={() => setSchedulerOpen(false)} onSchedule={schedule} />
        </Suspense>
      )}
      {creditsPrompt && (
        <CreditsPrompt
          credits={creditsPrompt.credits}
          currencies={currencies}
          onCancel={() => setCreditsPrompt(null)}
          onSeePlans={() => navigate('/payments')}
          onContinue={() => void launch(creditsPrompt.from, { acceptExtraUsage: true })}
        />
      )}
    </section>
  );
}

/** The keys of a section's inputs the user fills here (and so the ones Next checks). */
function keysOf(section: Section, embedded: boolean): string[] {
  return shownInputs(section).filter((input) => fillableHere(input, embedded)).map((input) => input.key);
}
