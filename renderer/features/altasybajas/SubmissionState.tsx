import { useId, useState } from 'react';
import type { Submission } from '#shared/api/altas.ts';
import { workerName } from '#shared/altas/records.ts';
import { useToast } from '../../app/hooks.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, TextField } from '../../ui/index.ts';
import { useMarkRegisteredMutation } from './altasApi.ts';
import { errorSource, formatRowDate, readServerFailure } from './altasModel.ts';
import { SubmissionChain } from './SubmissionList.tsx';

const REFERENCE_MAX = 100;

/**
 * 'Ver Alta''s state (issue 44, 5): the chain in words; RED's or A3's last refusal and when it came; who
 * marked it registered by hand and RED's reference; RED's answer or the AFI file. While RED does not have
 * it, 'Marcar como registrada' (issue 44, 3) asks first, takes an optional reference and records it.
 */
export function SubmissionState({ submission, onChange }: { submission: Submission; onChange: (next: Submission) => void }) {
  const titleId = useId();
  const toast = useToast();
  const [markRegistered, marking] = useMarkRegisteredMutation();
  const [confirming, setConfirming] = useState(false);
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const source = errorSource(submission);
  const redAt = submission.chain.redAt ?? submission.processed.syncSistemaRed;
  const manual = submission.manualRegistration;

  const confirm = async () => {
    const trimmed = reference.trim();
    if (trimmed.length > REFERENCE_MAX) {
      setError(`Escribe como máximo ${REFERENCE_MAX} caracteres`);
      return;
    }
    try {
      const next = await markRegistered({ id: submission._id, reference: trimmed === '' ? null : trimmed }).unwrap();
      toast.success(text.state.marked);
      setConfirming(false);
      onChange(next);
    } catch (failure) {
      const read = readServerFailure(failure);
      setError(read.fields.reference ?? read.message ?? text.state.markFailed);
    }
  };

  return (
    <section className="altas-state" aria-labelledby={titleId}>
      <h3 id={titleId} className="altas-state__title">{text.state.title}</h3>
      <SubmissionChain submission={submission} />
      {source && submission.lastError && (
        <p className="altas-state__error" role="note">
          <strong>{text.state.lastError(source === 'red' ? text.state.red : text.state.a3, submission.lastErrorAt ? formatRowDate(submission.lastErrorAt) : null)}</strong>{' '}
          <span>{submission.lastError}</span>
        </p>
      )}
      {manual && redAt && (
        <p className="altas-state__line">
          {text.state.byHand(manual.byName, formatRowDate(redAt))}
          {manual.reference && <> {text.state.reference(manual.reference)}</>}
        </p>
      )}
      {!manual && submission.redResolution && (
        <p className="altas-state__line">
          <strong>{text.state.redResolution}</strong> {submission.redResolution}
        </p>
      )}
      {submission.afiFile && !redAt && <p className="altas-state__line">{text.state.afiFile(submission.afiFile)}</p>}
      {!redAt && !confirming && (
        <div>
          <Button variant="secondary" onClick={() => setConfirming(true)}>{text.state.markRegistered}</Button>
        </div>
      )}
      {!redAt && confirming && (
        <div className="altas-state__confirm" role="group" aria-label={text.state.markTitle}>
          <p className="altas-state__confirm-title">{text.state.markTitle}</p>
          <p className="ui-muted">{text.state.markText(workerName(submission.fieldsValues) || submission.title)}</p>
          <TextField
            label={text.state.markReference}
            value={reference}
            maxLength={REFERENCE_MAX}
            error={error ?? undefined}
            onValueChange={(value) => {
              setReference(value);
              setError(null);
            }}
          />
          <div className="altas-state__actions">
            <Button variant="secondary" onClick={() => { setConfirming(false); setError(null); }}>{text.submission.cancel}</Button>
            <Button loading={marking.isLoading} onClick={() => void confirm()}>{text.state.markConfirm}</Button>
          </div>
        </div>
      )}
    </section>
  );
}
