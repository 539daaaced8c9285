import { useCallback, useEffect, useState } from 'react';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { formatCredits } from '#shared/billing/index.ts';
import { useLauncherSubscriptionQuery } from '../../api/account.ts';
import { useUploadColumnsQuery } from '../../api/flows.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { estimateCost, unitMeasure } from './launcherModel.ts';

/** Reports one uploaded workbook's data rows (the same cached request the column mapping makes). */
function WorkbookRows({ uploadId, onRows }: { uploadId: string; onRows: (uploadId: string, rows: number | null) => void }) {
  const { data } = useUploadColumnsQuery(uploadId);
  const rows = data?.rowCount ?? null;
  useEffect(() => onRows(uploadId, rows), [uploadId, rows, onRows]);
  return null;
}

/**
 * ★ What a launch will cost before it is launched: usageRatio × the units the server will count
 * (rows of the uploaded workbooks for a flow billed by rows, else one unit as the least), beside the
 * firm's balance. Shown on the section that launches.
 */
export function CostEstimate({ flow, workbookIds, currencies }: { flow: FlowDefinition; workbookIds: readonly string[]; currencies?: string }) {
  const [rowsByUpload, setRowsByUpload] = useState<Record<string, number | null>>({});
  const { data: subscription } = useLauncherSubscriptionQuery();
  const onRows = useCallback((uploadId: string, rows: number | null) =>
    setRowsByUpload((current) => (current[uploadId] === rows ? current : { ...current, [uploadId]: rows })), []);

  const counts = workbookIds.map((id) => rowsByUpload[id]);
  const rowCount = workbookIds.length > 0 && counts.every((rows) => typeof rows === 'number')
    ? counts.reduce<number>((sum, rows) => sum + (rows ?? 0), 0)
    : null;
  const estimate = estimateCost(flow, rowCount);
  const measure = unitMeasure(flow.usageMeasureUnit);
  const balance = subscription?.balance;

  return (
    <div className="launcher-cost" aria-live="polite">
      {/* Rows matter only to a flow billed by rows. */}
      {measure.rowsPerUnit !== null && workbookIds.map((id) => <WorkbookRows key={id} uploadId={id} onRows={onRows} />)}
      {estimate === null ? (
        <p className="launcher-cost__figure ui-muted">{text.cost.unknownUntilUpload}</p>
      ) : (
        <p className="launcher-cost__figure">
          <strong>{(estimate.lowerBound ? text.cost.atLeast : text.cost.estimated)(formatCredits(estimate.cost, currencies))}</strong>
          {rowCount !== null && measure.rowsPerUnit !== null && <span className="ui-muted"> · {text.cost.basis(text.cost.rows(rowCount))}</span>}
        </p>
      )}
      {balance !== undefined && (
        <p className="launcher-cost__balance">
          {text.cost.balance(formatCredits(balance, currencies))}
          {estimate !== null && estimate.cost > balance && <strong className="launcher-cost__warning"> {text.cost.overBalance}</strong>}
        </p>
      )}
    </div>
  );
}
