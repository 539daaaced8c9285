import { lazy, Suspense, useEffect, useRef } from 'react';
import { MACHINE_OFFLINE_MESSAGE } from '#shared/api/devices.ts';
import { flowsPaths, pathFor } from '#shared/api/flows.ts';
import type { Output } from '#shared/api/flows.ts';
import type { FieldIssue } from '#shared/api/errors.ts';
import { formatCredits } from '#shared/billing/index.ts';
import { formatBytes } from '#shared/files/index.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { Button } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import type { ErrorKind } from './launcherModel.ts';
import type { RunProgress } from './useRun.ts';

// react-markdown loads with the first tutorial or instructions shown, not with the wizard.
const MarkdownText = lazy(() => import('../../ui/Markdown.tsx'));

export function MarkdownBlock({ source }: { source: string }) {
  return (
    <Suspense fallback={<Spinner size="small" />}>
      {/* The section title is the page's h2: markdown headings start below it. */}
      <div className="ui-markdown launcher-markdown">
        <MarkdownText source={source} topHeading={3} />
      </div>
    </Suspense>
  );
}

/** TutorialSection: its params.markdown. */
export function TutorialSection({ markdown }: { markdown: unknown }) {
  return typeof markdown === 'string' && markdown.trim() !== '' ? <MarkdownBlock source={markdown} /> : null;
}

/** The robot's console lines, announced as they arrive. */
export function ConsolePanel({ lines, id }: { lines: readonly string[]; id?: string }) {
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [lines.length]);
  return (
    <section className="launcher-console" id={id} aria-label={text.consoleTitle}>
      <h3 className="launcher-console__title">{text.consoleTitle}</h3>
      {lines.length === 0 ? (
        <p className="ui-muted">{text.consoleEmpty}</p>
      ) : (
        <ol className="launcher-console__lines" role="log" aria-live="polite" aria-label={text.consoleTitle} tabIndex={0}>
          {lines.map((line, index) => (
            <li key={index} ref={index === lines.length - 1 ? end : undefined}>{line}</li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** LoadingSection: what the run is doing, its iterations done of total, its live console and Detener. */
export function LoadingSection({ caption, progress, onStop }: { caption?: unknown; progress: RunProgress; onStop: () => void }) {
  const { state, successfulIterations, totalIterations, consoleLog, stopping, reconnecting, machine } = progress;
  const queued = state === 'queued' ? (machine ? text.running.waitingFor(machine.name) : text.running.queued) : null;
  const status = progress.phase === 'starting' ? text.running.starting : queued ?? text.running.running;
  return (
    <div className="launcher-loading">
      <div className="launcher-loading__status" role="status">
        <Spinner size="medium" decorative />
        <span>{stopping ? text.running.stopping : typeof caption === 'string' && caption !== '' && state === 'running' ? caption : status}</span>
      </div>
      {/* The bar keeps its place from the start, so nothing moves when the first figures come. */}
      <div className="launcher-loading__progress">
        <progress
          max={Math.max(totalIterations, 1)}
          value={totalIterations > 0 ? successfulIterations : undefined}
          aria-label={text.running.progressLabel}
        />
        <span className="ui-muted">{totalIterations > 0 ? text.running.progress(successfulIterations, totalIterations) : '\u00a0'}</span>
      </div>
      {reconnecting && <p className="ui-muted" role="status">{text.running.reconnecting}</p>}
      {state === 'queued' && machine && !machine.online && <p className="launcher-notice" role="status">{MACHINE_OFFLINE_MESSAGE}</p>}
      <ConsolePanel lines={consoleLog} />
      <div className="launcher-actions">
        <Button variant="danger" onClick={onStop} loading={stopping} disabled={progress.phase !== 'running'}>
          {text.buttons.stop}
        </Button>
      </div>
    </div>
  );
}

export interface OutputSectionProps {
  output: Output;
  currencies?: string;
  unit: { singular: string; plural: string };
  /** A desktop run's folder on the PC that ran it. */
  folder?: string | null;
  /** Set when the run was on this PC: 'Abrir carpeta' opens `folder` here. */
  onOpenFolder?: (folder: string) => void;
}

/**
 * OutputSection: the robot's summary figures, its files and what it cost. Files on the server are
 * downloaded; a desktop run's files that stayed on its PC are listed by name, with 'Abrir carpeta' on
 * that PC.
 */
export function OutputSection({ output, currencies, unit, folder, onOpenFolder }: OutputSectionProps) {
  const { data } = output;
  const downloadable = new Set(data.files.map((file) => file.name));
  const onDevice = (data.outputFileNames ?? []).filter((name) => !downloadable.has(name));
  const openable = onOpenFolder && folder ? () => onOpenFolder(folder) : undefined;
  const units = `${new Intl.NumberFormat('es-ES').format(data.usageUnits)} ${data.usageUnits === 1 ? unit.singular : unit.plural}`;
  const summary = Object.entries(data.summary ?? {});
  return (
    <div className="launcher-output">
      {data.message && <p className="launcher-output__message">{data.message}</p>}
      {summary.length > 0 && (
        <section aria-labelledby="launcher-summary-title">
          <h3 id="launcher-summary-title" className="launcher-subtitle">{text.output.summary}</h3>
          <dl className="ui-definitions launcher-output__summary">
            {summary.map(([label, value]) => (
              <div key={label} className="ui-definitions__item">
                <dt>{label}</dt>
                <dd>{typeof value === 'number' ? new Intl.NumberFormat('es-ES').format(value) : typeof value === 'boolean' ? (value ? 'Sí' : 'No') : value}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <section aria-labelledby="launcher-files-title">
        <h3 id="launcher-files-title" className="launcher-subtitle">{text.output.files}</h3>
        {data.files.length === 0 && onDevice.length === 0 && <p className="ui-muted">{text.output.noFiles}</p>}
        {data.files.length > 0 && (
          <ul className="launcher-output__files">
            {data.files.map((file) => (
              <li key={file.name}>
                <a
                  className="ui-button ui-button--secondary"
                  href={pathFor(flowsPaths.outputFile, { id: data.runId, name: file.name })}
                  download={file.name}
                  aria-label={text.output.download(file.name)}
                >
                  <span className="ui-button__label">{file.name}</span>
                </a>
                <span className="ui-muted">{formatBytes(file.size)}</span>
              </li>
            ))}
          </ul>
        )}
        {onDevice.length > 0 && (
          <>
            <p className="ui-muted launcher-output__note">{text.output.onDevice}</p>
            <ul className="launcher-output__names">
              {onDevice.map((name) => <li key={name}>{name}</li>)}
            </ul>
          </>
        )}
        {openable && (
          <div className="launcher-output__folder">
            <Button variant="secondary" onClick={openable}>{text.output.openFolder}</Button>
          </div>
        )}
      </section>
      <p className="launcher-output__cost">
        <strong>{text.output.charged(formatCredits(data.cost, currencies))}</strong>{' '}
        <span className="ui-muted">({text.output.chargedBasis(units, formatCredits(data.usageRatio, currencies))})</span>
      </p>
    </div>
  );
}

/** What went wrong, as the error section shows it. */
export interface RunProblem {
  kind: ErrorKind;
  status: number;
  /** The server's or the robot's message. */
  message?: string;
  issues?: readonly FieldIssue[];
  /** No answer reached us: Reintentar re-sends the same launch. */
  retryable?: boolean;
}

function problemTitle(problem: RunProblem): string {
  if (problem.kind === 'result') return text.errors.resultTitle;
  if (problem.kind === 'timeout') return text.errors.timeoutTitle;
  switch (problem.status) {
    case 202: return text.errors.stoppedTitle;
    case 299: return text.errors.abortedTitle;
    case 400: return text.errors.inputsTitle;
    case 401: return text.errors.sessionTitle;
    default: return text.errors.defaultTitle;
  }
}

function problemText(problem: RunProblem): string | undefined {
  if (problem.message) return problem.message;
  if (problem.kind === 'result') return text.errors.resultText;
  if (problem.kind === 'timeout') return text.errors.timeoutText;
  if (problem.status === 202) return text.errors.stoppedText;
  return undefined;
}

/** ErrorSection: type result (242), timeout (504) or default, with the output's or the API's message. */
export function ErrorSection({ problem, onRetry, retrying }: { problem: RunProblem; onRetry?: () => void; retrying?: boolean }) {
  const detail = problemText(problem);
  return (
    <div className={`launcher-error launcher-error--${problem.kind}`} role="alert">
      <h3 className="launcher-error__title">{problemTitle(problem)}</h3>
      {detail && <p className="launcher-error__text">{detail}</p>}
      {problem.issues && problem.issues.length > 0 && (
        <ul className="launcher-error__issues">
          {problem.issues.map((issue) => (
            <li key={`${issue.path}-${issue.message}`}>{issue.message}</li>
          ))}
        </ul>
      )}
      {problem.retryable && onRetry && (
        <Button onClick={onRetry} loading={retrying}>{text.buttons.retry}</Button>
      )}
    </div>
  );
}
