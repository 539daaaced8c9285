import { flowsPaths, pathFor } from '#shared/api/flows.ts';
import type { LogLine } from '#shared/api/flows.ts';
import { formatMadridTime, toMadridParts } from '#shared/time/madrid.ts';
import { useFlowlogDetailQuery } from '../../api/flows.ts';
import { flows } from '../../i18n/es-flows.ts';
import { Button, IconFile, Spinner } from '../../ui/index.ts';

const text = flows.log;

/** 'HH:mm:ss' in Madrid: lines of one run are seconds apart. */
function lineTime(timestamp: string): string {
  const instant = new Date(timestamp);
  if (Number.isNaN(instant.getTime())) return '';
  return `${formatMadridTime(instant)}:${String(toMadridParts(instant).second).padStart(2, '0')}`;
}

function LogLines({ lines }: { lines: readonly LogLine[] }) {
  if (lines.length === 0) return <p className="ui-muted">{text.noLines}</p>;
  return (
    // It scrolls on its own, so it must take the focus for keyboard users to scroll it.
    <ol className="flows-log__lines" tabIndex={0} aria-label={text.linesTitle}>
      {lines.map((line, index) => (
        <li key={index} className={`flows-log__line flows-log__line--${line.level}`}>
          <span className="flows-log__level">{text.levels[line.level]}</span>
          <time className="flows-log__time" dateTime={line.timestamp}>{lineTime(line.timestamp)}</time>
          <span className="flows-log__text">{line.text}</span>
        </li>
      ))}
    </ol>
  );
}

/** A run's log lines and output files, loaded when its history row is expanded (GET flowlog/:id). */
export function RunLogDetail({ runId }: { runId: string }) {
  const { data: run, isLoading, isError, refetch } = useFlowlogDetailQuery(runId);
  if (isLoading) return <Spinner label={text.loading} />;
  if (isError || !run) {
    return (
      <div role="alert" className="ui-inline-error">
        <p>{text.failed}</p>
        <Button variant="ghost" onClick={() => void refetch()}>{flows.robot.retry}</Button>
      </div>
    );
  }
  return (
    <div className="flows-log">
      <div>
        <h3 className="flows-log__title">{text.linesTitle}</h3>
        <LogLines lines={run.logStreams} />
      </div>
      <div>
        <h3 className="flows-log__title">{text.filesTitle}</h3>
        {run.outputFileNames.length === 0 ? (
          <p className="ui-muted">{text.noFiles}</p>
        ) : (
          <ul className="flows-log__files">
            {run.outputFileNames.map((name) => (
              <li key={name}>
                <a href={pathFor(flowsPaths.outputFile, { id: run._id, name })} download={name} aria-label={text.download(name)}>
                  <IconFile size={16} /> {name}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
