import type { NotEnoughCredits } from '#shared/api/flows.ts';
import { creditUnitNames, formatCredits, formatUnitPrice } from '#shared/billing/index.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { Button } from '../../ui/Button.tsx';
import { Modal } from '../../ui/Modal.tsx';

export interface CreditsPromptProps {
  /** The 402's figures; null when the run reported it without them. */
  credits: NotEnoughCredits | null;
  currencies?: string;
  onContinue: () => void;
  onSeePlans: () => void;
  onCancel: () => void;
}

/**
 * Spec §4/§8: the insufficient-credits prompt after a 402. 'Continuar' re-sends the launch on paid
 * extra usage, offered only when the plan allows it, saying what each unit of it costs ('0,03 € por
 * slan', the plan's price); 'Ver planes' goes to Payments.
 */
export function CreditsPrompt({ credits, currencies, onContinue, onSeePlans, onCancel }: CreditsPromptProps) {
  const canContinue = credits?.canContinue === true;
  const price = credits?.extraSlanPrice ?? null;
  const units = creditUnitNames(currencies);
  return (
    <Modal
      open
      title={text.credits.title(units.plural)}
      onClose={onCancel}
      size="small"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>{text.credits.cancel}</Button>
          <Button variant={canContinue ? 'secondary' : 'primary'} onClick={onSeePlans}>{text.credits.plans}</Button>
          {canContinue && <Button onClick={onContinue}>{text.credits.continue}</Button>}
        </>
      }
    >
      <p>
        {credits
          ? text.credits.body(formatCredits(credits.estimatedCost, currencies), formatCredits(credits.balance, currencies))
          : text.credits.bodyWithoutFigures}
      </p>
      {canContinue && (
        <p className="ui-muted">
          {price !== null ? text.credits.continueHintPriced(`${formatUnitPrice(price)} por ${units.singular}`) : text.credits.continueHint}
        </p>
      )}
    </Modal>
  );
}
