import { useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { Link } from 'react-router-dom';
import { flowsPaths, pathFor } from '#shared/api/flows.ts';
import type { FlowLogDetail, LogLine } from '#shared/api/flows.ts';
import { formatMadridDate, formatMadridTime, toMadridParts } from '#shared/time/madrid.ts';
import { useFlowlogDetailQuery, useLazyFlowlogLogPageQuery } from '../../api/flows.ts';
import { useBridge, useEmbedded, useToast } from '../../app/hooks.ts';
import { flows } from '../../i18n/es-flows.ts';
import { support } from '../../i18n/es-support.ts';
import { Button, IconFile, Spinner } from '../../ui/index.ts';
import { LoadFailed } from './LoadSection.tsx';
import { RunDeliveries } from './RunDeliveries.tsx';

const text = flows.log;

/** 'HH:mm:ss' in Madrid: lines of one run are seconds apart. */
function lineTime(timestamp: string): string {
  const instant = new Date(timestamp);
  if (Number.isNaN(instant.getTime())) return '';
  return `${formatMadridTime(instant)}:${String(toMadridParts(instant).second).padStart(2, '0')}`;
}

const count = new Intl.NumberFormat('es-ES');

function LogLines({ lines, listRef }: { lines: readonly LogLine[]; listRef?: Ref<HTMLOListElement> }) {
  if (lines.length === 0) return <p className="ui-muted">{text.noLines}</p>;
  return (
    // It scrolls on its own, so it must take the focus for keyboard users to scroll it.
    <ol ref={listRef} className="flows-log__lines" tabIndex={0} aria-label={text.linesTitle}>
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

/** Pages loaded after the first one (which comes with the run): their lines, and where the next one starts. */
interface LaterPages {
  /** The first page they follow: a new first page (the run was fetched again) starts over. */
  after: FlowLogDetail;
  lines: LogLine[];
  next: number | null;
  hasMore: boolean;
}

/**
 * A run's log, a page at a time: the first page comes with the run; 'Cargar más líneas' asks for the
 * lines after the last one shown and adds them below. The button keeps the keyboard focus while
 * there is more to load, and hands it to the list once everything is shown.
 */
function RunLog({ run }: { run: FlowLogDetail }) {
  const [later, setLater] = useState<LaterPages | null>(null);
  const [failed, setFailed] = useState(false);
  const [loadPage, { isFetching }] = useLazyFlowlogLogPageQuery();
  const list = useRef<HTMLOListElement>(null);
  const moreButton = useRef<HTMLDivElement>(null);
  // Set by a page that arrived: the focus moves once it is on screen.
  const focusAfterLoad = useRef(false);
  const pages = later?.after === run ? later : null;
  const lines = useMemo(() => (pages ? [...run.logStreams, ...pages.lines] : run.logStreams), [run, pages]);
  const hasMore = pages ? pages.hasMore : run.logHasMore;
  const next = pages ? pages.next : run.logNext;

  useEffect(() => {
    if (!focusAfterLoad.current) return;
    focusAfterLoad.current = false;
    const button = moreButton.current?.querySelector('button');
    if (button) button.focus();
    else list.current?.focus();
  }, [later, failed]);

  const loadMore = async () => {
    if (next === null || isFetching) return;
    setFailed(false);
    try {
      const page = await loadPage({ id: run._id, after: next }).unwrap();
      focusAfterLoad.current = true;
      setLater({ after: run, lines: [...(pages?.lines ?? []), ...page.logStreams], next: page.logNext ?? next, hasMore: page.logHasMore && page.logStreams.length > 0 });
    } catch {
      focusAfterLoad.current = true;
      setFailed(true);
    }
  };

  return (
    <>
      <LogLines lines={lines} listRef={list} />
      {hasMore && (
        <div ref={moreButton} className="flows-log__more">
          <span className="ui-muted" aria-live="polite">
            {isFetching ? text.loadingMore : text.shownOf(count.format(lines.length), count.format(Math.max(run.logTotal, lines.length)))}
          </span>
          <Button variant="secondary" loading={isFetching} onClick={() => void loadMore()}>{text.loadMore}</Button>
          {failed && <p role="alert" className="ui-inline-error flows-log__more-error">{text.loadMoreFailed}</p>}
        </div>
      )}
    </>
  );
}

/** The machine this PC is linked as (desktop app only): its runs' folders can be opened here. */
function useThisMachineId(): string | null {
  const embedded = useEmbedded();
  const bridge = useBridge();
  const [machineId, setMachineId] = useState<string | null>(null);
  useEffect(() => {
    if (!embedded || !bridge.available) return undefined;
    let live = true;
    void bridge.invoke('GetDeviceStatus', {}).then((result) => {
      if (live && result.ok) setMachineId(result.data.machine?._id ?? null);
    });
    return () => {
      live = false;
    };
  }, [embedded, bridge]);
  return machineId;
}

/** 'Disponible hasta el 13/08/2025' (Madrid), or nothing for a date it cannot read. */
function availableUntil(expiresAt: string | null): string | null {
  const instant = expiresAt === null ? null : new Date(expiresAt);
  return instant === null || Number.isNaN(instant.getTime()) ? null : text.availableUntil(formatMadridDate(instant));
}

/**
 * A run's files: downloads for those on the server until they expire (the server deletes them after
 * its retention; an expired one stays listed by name, marked 'Caducado', with no link). A desktop run
 * launched on its own PC kept its files there: their names, and on that same PC (desktop app) 'Abrir carpeta'.
 */
function OutputFiles({ run }: { run: FlowLogDetail }) {
  const bridge = useBridge();
  const toast = useToast();
  const thisMachineId = useThisMachineId();
  if (run.outputFiles.length === 0) return <p className="ui-muted">{text.noFiles}</p>;

  const keptOnDevice = run.machine !== null && !run.remote;
  if (!keptOnDevice) {
    return (
      <>
        <ul className="flows-log__files">
          {run.outputFiles.map((file) => {
            const until = availableUntil(file.expiresAt);
            return (
              <li key={file.name} className={file.expired ? 'flows-log__file flows-log__file--expired' : 'flows-log__file'}>
                {file.expired ? (
                  <>
                    <span className="flows-log__file-name"><IconFile size={16} /> {file.name}</span>
                    <span className="ui-chip flows-log__expired">{text.expired}</span>
                  </>
                ) : (
                  <>
                    <a href={pathFor(flowsPaths.outputFile, { id: run._id, name: file.name })} download={file.name} aria-label={text.download(file.name)}>
                      <IconFile size={16} /> {file.name}
                    </a>
                    {until && <span className="ui-muted flows-log__until">{until}</span>}
                  </>
                )}
              </li>
            );
          })}
        </ul>
        {run.outputFiles.some((file) => file.expired) && <p className="ui-muted flows-log__note">{text.expiredNote}</p>}
      </>
    );
  }

  const folder = run.outputFolder;
  const here = folder !== null && thisMachineId !== null && run.machine?._id === thisMachineId;
  const openFolder = async (path: string) => {
    const opened = await bridge.invoke('OpenFolder', { folder: path });
    if (!opened.ok) toast.error(`${text.openFolderFailed}: ${opened.error.message}`);
  };
  return (
    <>
      <p className="ui-muted flows-log__note">{text.onDevice(run.machine?.name ?? '')}</p>
      <ul className="flows-log__names">
        {run.outputFiles.map((file) => <li key={file.name}>{file.name}</li>)}
      </ul>
      {here && (
        <div className="flows-log__folder">
          <Button variant="secondary" onClick={() => void openFolder(folder)}>{text.openFolder}</Button>
        </div>
      )}
    </>
  );
}

/** A run's log lines, output files and the mails it caused, loaded when its history row is expanded (GET flowlog/:id). */
export function RunLogDetail({ runId }: { runId: string }) {
  const { data: run, isLoading, isError, refetch } = useFlowlogDetailQuery(runId);
  if (isLoading) return <Spinner label={text.loading} />;
  if (isError || !run) return <LoadFailed text={text.failed} onRetry={() => void refetch()} />;
  return (
    <div className="flows-log">
      <div>
        <h3 className="flows-log__title">{text.linesTitle}</h3>
        <RunLog run={run} />
      </div>
      <div>
        <h3 className="flows-log__title">{text.filesTitle}</h3>
        <OutputFiles run={run} />
      </div>
      <RunDeliveries runId={run._id} />
      {/* A new support ticket about this run (/help reads the run from the address). */}
      <p>
        <Link to={`/help?${new URLSearchParams({ nueva: '1', ejecucion: run._id }).toString()}`}>{support.askAboutRun}</Link>
      </p>
    </div>
  );
}
