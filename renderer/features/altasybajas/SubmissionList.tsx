import { useId, useState } from 'react';
import type { MouseEvent } from 'react';
import type { Submission } from '#shared/api/altas.ts';
import { useAppDispatch, useToast } from '../../app/hooks.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, IconAlert, IconCheck, SearchInput } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { submissionsChanged, useDeleteSubmissionMutation } from './altasApi.ts';
import { byName, chainSteps, errorSource, formatRowDate, rowFacts, toggled, toggledAll } from './altasModel.ts';

export interface SubmissionListProps {
  title: string;
  emptyText: string;
  items: readonly Submission[];
  selection: ReadonlySet<string>;
  onSelectionChange: (selection: Set<string>) => void;
  onOpen: (submission: Submission) => void;
}

/** 'Pendientes' or 'Historial': select-all, a name search, delete selection, and one card per registration. */
export function SubmissionList({ title, emptyText, items, selection, onSelectionChange, onOpen }: SubmissionListProps) {
  const titleId = useId();
  const toast = useToast();
  const dispatch = useAppDispatch();
  const [search, setSearch] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteSubmission] = useDeleteSubmissionMutation();

  const shown = byName(items, search);
  const shownIds = shown.map((item) => item._id);
  const selectedHere = items.filter((item) => selection.has(item._id)).map((item) => item._id);
  const allSelected = shownIds.length > 0 && shownIds.every((id) => selection.has(id));

  const removeSelected = async () => {
    setDeleting(true);
    const removed: string[] = [];
    for (const id of selectedHere) {
      try {
        await deleteSubmission(id).unwrap();
        removed.push(id);
      } catch {
        // Counted below: the rest still go, and the list shows what the server kept.
      }
    }
    setDeleting(false);
    setConfirming(false);
    const next = new Set(selection);
    for (const id of removed) next.delete(id);
    onSelectionChange(next);
    dispatch(submissionsChanged());
    if (removed.length < selectedHere.length) toast.error(text.list.deleteFailed);
    else toast.success(text.list.deleted(removed.length));
  };

  // A click anywhere on a row with a RED error shows it (spec §8); the row's own controls keep their job.
  const rowClicked = (event: MouseEvent, submission: Submission) => {
    if ((event.target as HTMLElement).closest('button, input, a, label')) return;
    if (submission.lastError) toast.error(submission.lastError);
  };

  return (
    <section className="ui-card altas-list" aria-labelledby={titleId}>
      <div className="altas-list__head">
        <h2 id={titleId} className="ui-section__title">{title}</h2>
        <label className="altas-list__all">
          <input
            type="checkbox"
            checked={allSelected}
            disabled={shownIds.length === 0}
            onChange={() => onSelectionChange(toggledAll(selection, shownIds))}
          />
          <span>{text.list.selectAll(title)}</span>
        </label>
        <span className="ui-muted altas-list__count" aria-live="polite">{text.list.selected(selectedHere.length)}</span>
        <Button variant="danger" disabled={selectedHere.length === 0} onClick={() => setConfirming(true)}>
          {text.list.deleteSelected}
        </Button>
      </div>
      <div className="altas-list__search">
        <SearchInput label={text.list.search(title)} placeholder={text.list.searchPlaceholder} value={search} onSearch={setSearch} />
      </div>
      {shown.length === 0 ? (
        <p className="ui-muted altas-list__empty">{items.length === 0 ? emptyText : text.list.noMatches}</p>
      ) : (
        <ul className="altas-list__rows">
          {shown.map((submission) => (
            <li
              key={submission._id}
              className={`altas-row${submission.lastError ? ' altas-row--error' : ''}`}
              onClick={(event) => rowClicked(event, submission)}
            >
              <input
                type="checkbox"
                className="altas-row__check"
                aria-label={text.list.select(submission.title)}
                checked={selection.has(submission._id)}
                onChange={(event) => onSelectionChange(toggled(selection, submission._id, event.target.checked))}
              />
              <div className="altas-row__main">
                <span className="altas-row__title">{submission.title}</span>
                <span className="ui-muted altas-row__company">{submission.company.name}</span>
                <span className="ui-muted altas-row__date">
                  {text.list.created} <time dateTime={submission.createdAt}>{formatRowDate(submission.createdAt)}</time>
                </span>
                <RowFacts submission={submission} />
                {submission.lastError && (
                  <button
                    type="button"
                    className="altas-row__error"
                    aria-label={text.list.showError(submission.title)}
                    onClick={() => toast.error(submission.lastError ?? '')}
                  >
                    <IconAlert size={16} />
                    <span>{errorSource(submission) === 'a3' ? text.list.errorMarkA3 : text.list.errorMark}</span>
                  </button>
                )}
              </div>
              <SubmissionChain submission={submission} />
              <div className="altas-row__actions">
                <Button variant="secondary" onClick={() => onOpen(submission)}>{text.list.view}</Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming}
        title={text.list.deleteTitle}
        text={text.list.deleteText(selectedHere.length)}
        confirmLabel={text.list.deleteConfirm}
        busy={deleting}
        onConfirm={() => void removeSelected()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

/** The worker's NIF and fecha de alta (issue 44, 5): two labelled fields, side by side or stacked at 390 px. */
function RowFacts({ submission }: { submission: Submission }) {
  const { nif, fechaAlta } = rowFacts(submission);
  return (
    <dl className="altas-row__facts">
      <div>
        <dt>{text.list.nif}</dt>
        <dd>{nif || text.list.noValue}</dd>
      </div>
      <div>
        <dt>{text.list.fechaAlta}</dt>
        <dd>{fechaAlta || text.list.noValue}</dd>
      </div>
    </dl>
  );
}

/** The chain as words and icon per step (never colour alone): 'Registrada en RED 18/11/26 11:00 · Pendiente de A3 …'. */
export function SubmissionChain({ submission }: { submission: Submission }) {
  return (
    <ol className="altas-chain" aria-label={text.chain.label}>
      {chainSteps(submission).map((step) => (
        <li key={step.key} className={`altas-chain__step${step.at ? ' altas-chain__step--done' : ''}${step.refused ? ' altas-chain__step--refused' : ''}`}>
          <span className="altas-chain__icon" aria-hidden="true">{step.at ? <IconCheck size={14} /> : step.refused ? <IconAlert size={14} /> : '○'}</span>
          <span>
            {step.label}
            {step.at && <span className="altas-chain__state"> {formatRowDate(step.at)}</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}
