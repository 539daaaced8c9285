import { possibleMessages } from '../../../ui/forms.ts';
import type { FieldRule } from '../../../ui/forms.ts';

/**
 * The error line under an input that is not a TextField, drawn the way TextField draws its own: always
 * there and as tall as the messages it may show, so an error appearing on blur moves nothing.
 */
export function FieldMessage({ id, error, rule }: { id: string; error?: string; rule: FieldRule }) {
  const [reserveA, reserveB] = [...possibleMessages(rule)].sort((a, b) => b.length - a.length);
  return (
    <p className="app-field__error" data-reserve-a={reserveA} data-reserve-b={reserveB}>
      <span id={id}>{error}</span>
    </p>
  );
}
