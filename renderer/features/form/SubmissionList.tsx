import { formatMadridDateTime } from '#shared/time/index.ts';
import { form as text } from '../../i18n/es-form.ts';
import type { PublicSubmissionStatus } from '#shared/api/altas.ts';
import type { FormSession } from './formModel.ts';

export interface SubmissionListProps {
  submissions: FormSession['submissions'];
  /** Several companies: each line says which one sent it. */
  showCompany: boolean;
}

const dateOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatMadridDateTime(date);
};

/** The company's own altas, newest first as the server sends them, with where each one is. */
export function SubmissionList({ submissions, showCompany }: SubmissionListProps) {
  return (
    <section className="ui-card ui-section" aria-labelledby="form-submissions-title">
      <h2 id="form-submissions-title" className="ui-section__title">{text.submissions.title}</h2>
      {submissions.length === 0 ? (
        <p className="ui-muted">{text.submissions.empty}</p>
      ) : (
        <ul className="form-submissions" aria-labelledby="form-submissions-title">
          {submissions.map((submission) => (
            <li key={submission._id} className="form-submissions__item">
              <div className="form-submissions__text">
                <span className="form-submissions__title">{submission.title}</span>
                <span className="ui-muted">
                  {text.submissions.sentOn(dateOf(submission.createdAt))}
                  {showCompany ? ` · ${submission.company}` : ''}
                </span>
                {submission.status === 'attention' && <span className="form-submissions__hint">{text.submissions.attentionHint}</span>}
              </div>
              <StatusChip status={submission.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Where the alta stands, in the company's words: received, being reviewed by the firm (RED refused it), or registered. */
function StatusChip({ status }: { status: PublicSubmissionStatus }) {
  if (status === 'registered') return <span className="ui-chip ui-chip--success">{text.submissions.registered}</span>;
  if (status === 'attention') return <span className="ui-chip ui-chip--warning">{text.submissions.attention}</span>;
  return <span className="ui-chip">{text.submissions.received}</span>;
}
