import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MACRO_STEP_LABELS } from '#shared/macros/definition.ts';
import type { MacroDefinition, MacroStep } from '#shared/macros/definition.ts';
import { useLauncherSubscriptionQuery } from '../../api/account.ts';
import { problemsOf, useCreateMacroMutation } from '../../api/macros.ts';
import { pickLocalCertificate } from '../../api/macrosBridge.ts';
import type { PageCertificate } from '../../api/macrosBridge.ts';
import { useBridge, useEmbedded, usePrompt } from '../../app/hooks.ts';
import { macros, needsDesktop } from '../../i18n/es-macros.ts';
import { Button, PageCertificateField, IconRecord, InfoCard, PageHeader, Spinner, TextField } from '../../ui/index.ts';
import { describeSelector } from '#shared/macros/locator.ts';
import '../../ui/robot-tools.css';
import './recorder.css';

const text = macros.recorder;
/** The recorder's browser is asked for its steps this often (issue 41: a live list). */
export const RECORDING_POLL_MS = 1000;
const URL_PATTERN = /^https?:\/\/[^\s]+$/;

type Phase =
  | { kind: 'ready' }
  /** `macro` once the recording is stopped: kept until the server has it, so a failed save can be tried again. */
  | { kind: 'recording'; recordingId: string; steps: MacroStep[]; open: boolean; macro: MacroDefinition | null }
  | { kind: 'saved'; flowId: string; name: string };

/** A recorded step in one line: 'Hacer clic: botón «Entrar»'. */
function stepLine(step: MacroStep): string {
  const label = MACRO_STEP_LABELS[step.type];
  if (step.type === 'goto') return `${label}: ${step.url.kind === 'text' ? step.url.text : '…'}`;
  if ('target' in step) return `${label}: ${describeSelector(step.target)}`;
  return label;
}

/** In the web app there is no robot browser to record with: say how to get the desktop app. */
function NeedsDesktop() {
  return (
    <InfoCard title={text.webTitle} icon={<IconRecord />}>
      <p>{text.webText}</p>
      <ol className="sb-steps-help">{needsDesktop.steps.map((step) => <li key={step}>{step}</li>)}</ol>
      <Link className="ui-button ui-button--secondary" to="/workspace">{needsDesktop.workspace}</Link>
    </InfoCard>
  );
}

/**
 * /recorder (issue 41 §1, MacroRecorder): in the desktop app 'Grabar' opens the robot's Chromium at the
 * start URL (with a certificate of this PC if chosen), the steps appear as they are recorded, and
 * 'Detener y guardar' stores them as a macro of the firm, opened in SmartBuilder where the plan allows.
 */
export default function RecorderPage() {
  const bridge = useBridge();
  const embedded = useEmbedded();
  const prompt = usePrompt();
  const navigate = useNavigate();
  const ids = useId();
  const subscription = useLauncherSubscriptionQuery();
  const [createMacro] = useCreateMacroMutation();
  const [startUrl, setStartUrl] = useState('https://');
  const [urlError, setUrlError] = useState<string | undefined>();
  const [certificate, setCertificate] = useState<PageCertificate | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });
  const [busy, setBusy] = useState<'certificate' | 'start' | 'stop' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const recordingId = phase.kind === 'recording' && phase.macro === null ? phase.recordingId : null;
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  // The button pressed goes away with the phase it belonged to: the new phase's heading takes the focus.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (phase.kind !== 'ready') heading.current?.focus();
  }, [phase.kind]);

  // While recording, the steps so far every second (the robot's browser keeps them).
  useEffect(() => {
    if (recordingId === null) return;
    let stopped = false;
    const poll = async () => {
      const result = await bridge.invoke('GetMacroRecording', { recordingId });
      if (stopped) return;
      if (!result.ok) {
        setProblem(text.pollFailed(result.error.message));
        return;
      }
      setProblem(null);
      setPhase((current) => (current.kind === 'recording' && current.recordingId === recordingId ? { ...current, steps: result.data.steps, open: result.data.open } : current));
    };
    const timer = window.setInterval(() => void poll(), RECORDING_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [bridge, recordingId]);

  if (!bridge.available) {
    return (
      <main className="ui-page sb-page">
        <PageHeader title={text.title} subtitle={text.subtitle} />
        <NeedsDesktop />
      </main>
    );
  }

  const chooseCertificate = async () => {
    setBusy('certificate');
    const result = await pickLocalCertificate(bridge, prompt, macros.certificate.pickerTitle, certificate);
    setBusy(null);
    if (!result.ok) setProblem(result.message);
    else setCertificate(result.certificate);
  };

  const start = async () => {
    if (!URL_PATTERN.test(startUrl.trim()) || startUrl.trim() === 'https://') {
      setUrlError(text.startUrlInvalid);
      return;
    }
    setProblem(null);
    setBusy('start');
    const result = await bridge.invoke('StartMacroRecording', { startUrl: startUrl.trim(), ...(certificate && { certificateFingerprint: certificate.fingerprint }) });
    setBusy(null);
    if (!result.ok) setProblem(result.error.message);
    else setPhase({ kind: 'recording', recordingId: result.data.recordingId, steps: [], open: true, macro: null });
  };

  const stop = async () => {
    if (phase.kind !== 'recording') return;
    setBusy('stop');
    setProblem(null);
    let macro = phase.macro;
    if (macro === null) {
      const result = await bridge.invoke('StopMacroRecording', { recordingId: phase.recordingId });
      if (!result.ok) {
        setBusy(null);
        setProblem(result.error.message);
        return;
      }
      macro = result.data.macro;
      const stopped = macro;
      setPhase({ ...phase, steps: stopped.steps, open: false, macro: stopped });
    }
    try {
      const created = await createMacro({ source: 'recording', definition: macro }).unwrap();
      if (!mounted.current) return;
      setBusy(null);
      // SmartBuilder is the web app's, on paid plans: go there when both hold, else say where the robot is.
      if (!embedded && subscription.data?.active) navigate(`/smartbuilder?robot=${encodeURIComponent(created.id)}`);
      else setPhase({ kind: 'saved', flowId: created.flowId, name: created.name });
    } catch (error) {
      setBusy(null);
      setProblem(problemsOf(error, text.saveFailed).join(' '));
    }
  };

  return (
    <main className="ui-page sb-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      {phase.kind === 'saved' ? (
        <section className="ui-card sb-card" aria-labelledby={`${ids}-saved`}>
          <h2 className="sb-section-title" id={`${ids}-saved`} ref={heading} tabIndex={-1}>{text.savedTitle(phase.name)}</h2>
          <p>{text.savedText}</p>
          {subscription.data?.active !== true ? <p>{text.savedNeedsPlan}</p> : embedded ? <p>{text.savedEditOnWeb}</p> : null}
          <div className="sb-actions">
            <Link className="ui-button ui-button--primary" to={`/launcher/${encodeURIComponent(phase.flowId)}`}>{text.openLauncher}</Link>
            <Button variant="secondary" onClick={() => setPhase({ kind: 'ready' })}>{text.again}</Button>
          </div>
        </section>
      ) : phase.kind === 'ready' ? (
        <section className="ui-card sb-card" aria-label={text.record}>
          <TextField
            label={text.startUrl}
            type="url"
            value={startUrl}
            inputMode="url"
            error={urlError}
            reserve={[text.startUrlInvalid]}
            onValueChange={(value) => {
              setStartUrl(value);
              setUrlError(undefined);
            }}
          />
          <p className="ui-muted sb-small sb-hint" id={`${ids}-url-help`}>{text.startUrlHelp}</p>
          <PageCertificateField certificate={certificate} choosing={busy === 'certificate'} onChoose={() => void chooseCertificate()} onClear={() => setCertificate(null)} />
          <div className="sb-actions">
            <Button icon={<IconRecord size={16} />} loading={busy === 'start'} onClick={() => void start()}>{busy === 'start' ? text.starting : text.record}</Button>
          </div>
        </section>
      ) : (
        <section className="ui-card sb-card" aria-labelledby={`${ids}-recording`}>
          <h2 className="sb-section-title" id={`${ids}-recording`} ref={heading} tabIndex={-1}>
            <span className="sb-rec-dot" aria-hidden="true" /> {text.recording}
          </h2>
          <p className="ui-muted sb-small">{phase.macro ? text.stopped : phase.open ? text.recordingHelp : text.closed}</p>
          <p role="status" aria-live="polite" className="sb-small">{text.stepsCount(phase.steps.length)}</p>
          {phase.steps.length === 0 ? (
            <p className="ui-muted">{text.noSteps}</p>
          ) : (
            <ol className="sb-recorded" aria-label={text.stepsLabel}>
              {phase.steps.map((step) => <li key={step.id}>{stepLine(step)}</li>)}
            </ol>
          )}
          <div className="sb-actions">
            <Button loading={busy === 'stop'} onClick={() => void stop()}>{busy === 'stop' ? text.stopping : phase.macro ? text.saveAgain : text.stop}</Button>
          </div>
        </section>
      )}
      {/* Below the buttons, so a message never pushes them from under the pointer. */}
      {problem && <p className="sb-problems" role="alert">{problem}</p>}
      {busy === 'stop' && <p className="ui-visually-hidden" role="status"><Spinner size="small" decorative /> {text.stopping}</p>}
    </main>
  );
}
