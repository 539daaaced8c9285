import { useNavigate } from 'react-router-dom';
import { Button } from '../../ui/Button.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { es } from '../../i18n/es.ts';

/** Shown instead of a payment-gated screen when there is no active subscription (spec §4). */
export function PaymentRequiredModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <Modal
      open
      title={es.paymentRequired.title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {es.common.cancel}
          </Button>
          <Button onClick={() => navigate('/payments')}>{es.common.seePlans}</Button>
        </>
      }
    >
      <p>{es.paymentRequired.body}</p>
    </Modal>
  );
}
