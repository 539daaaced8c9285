import type { SelectHTMLAttributes, Ref } from 'react';
import { useEffect, useId } from 'react';
import type { FlowLog } from '#shared/api/flows.ts';
import { TICKET_RUN_NOT_FOUND_MESSAGE } from '#shared/api/support.ts';
import { useFlowlogDetailQuery, useFlowlogQuery } from '../../api/flows.ts';
import { support } from '../../i18n/es-support.ts';
import { ticketTime } from '../../ui/TicketThread.tsx';

const text = support.form;

/** The recent runs offered; older ones can still be named from their history row (the link sets ?ejecucion=). */
const RECENT_RUNS = 30;

/**
 * Only runs that really ran (issue 44): a launch refused for credits stays in the history, and listed
 * here it was a second entry, with the same robot and time, for the launch that ran after 'Continuar'.
 */
const RECENT_QUERY = { limit: RECENT_RUNS, ran: 'true' } as const;

const runLabel = (run: Pick<FlowLog, 'browserFlow' | 'createAt'>) => text.runOption(run.browserFlow.name ?? text.unnamedRobot, ticketTime(run.createAt));

export interface RunChoiceProps extends SelectHTMLAttributes<HTMLSelectElement> {
  /** The run the URL names, kept as an option even when it is older than the recent ones. */
  preselected?: string;
  error?: string;
  ref?: Ref<HTMLSelectElement>;
  /** The preselected run cannot be read (deleted, or not the firm's): the form drops it. */
  onUnknown?: () => void;
}

/** 'Ejecución relacionada': none, or one of the firm's recent runs that ran (robot · date), from the run history. */
export function RunChoice({ preselected, error, ref, onUnknown, ...select }: RunChoiceProps) {
  const id = useId();
  const { data, isLoading, isError } = useFlowlogQuery(RECENT_QUERY);
  const recent = data?.items ?? [];
  const missing = preselected !== undefined && data !== undefined && !recent.some((run) => run._id === preselected);
  const { data: older, isError: unknown } = useFlowlogDetailQuery(preselected ?? '', { skip: !missing });
  useEffect(() => {
    if (unknown) onUnknown?.();
  }, [unknown, onUnknown]);
  const status = isLoading ? text.runsLoading : isError ? text.runsFailed : unknown ? TICKET_RUN_NOT_FOUND_MESSAGE : '';

  return (
    <div className={`app-field${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{text.run}</label>
      <select {...select} ref={ref} id={id} aria-invalid={error ? true : undefined} aria-describedby={`${id}-status`}>
        <option value="">{text.noRun}</option>
        {missing && older && <option value={older._id}>{runLabel(older)}</option>}
        {recent.map((run) => (
          <option key={run._id} value={run._id}>{runLabel(run)}</option>
        ))}
      </select>
      <p id={`${id}-status`} className="app-field__error">
        <span>{error ?? status}</span>
      </p>
    </div>
  );
}
