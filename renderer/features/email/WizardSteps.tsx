import { mail } from '../../i18n/es-mail.ts';
import { IconCheck } from '../../ui/index.ts';
import { WIZARD_STEPS } from './draft.ts';
import type { WizardStep } from './draft.ts';

const LABELS: Record<WizardStep, string> = { custom: mail.steps.message, auth: mail.steps.account, summary: mail.steps.summary };

/** 1 Mensaje · 2 Cuenta · 3 Resumen: where the user is, in words and numbers (aria-current), wrapping on a phone. */
export function WizardSteps({ current }: { current: WizardStep }) {
  const index = WIZARD_STEPS.indexOf(current);
  return (
    <nav aria-label={mail.stepsLabel} className="email-steps">
      <ol className="email-steps__list">
        {WIZARD_STEPS.map((step, position) => {
          const state = position < index ? 'done' : position === index ? 'current' : 'next';
          return (
            <li key={step} className={`email-steps__item email-steps__item--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="email-steps__number" aria-hidden="true">
                {state === 'done' ? <IconCheck size={14} /> : position + 1}
              </span>
              <span className="email-steps__label">{LABELS[step]}</span>
            </li>
          );
        })}
      </ol>
      <p className="ui-visually-hidden">{mail.stepOf(index + 1, WIZARD_STEPS.length)}</p>
    </nav>
  );
}
