import { Button } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';

interface ChoiceDialogProps {
  open: boolean;
  title: string;
  text: string;
  /** What else the action undoes, said after the text and set apart (a cancel drops a scheduled change of plan). */
  warning?: string | null;
  confirmLabel: string;
  /** What the way out says: 'Volver' rather than 'Cancelar' when the action itself is a cancel. */
  keepLabel: string;
  /** A plan change is ordinary (primary); a cancel or a removal is the dangerous one. */
  tone?: 'primary' | 'danger';
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A labelled confirmation (React Aria's dialog through ui/Modal: focus trapped, Escape closes it). */
export function ChoiceDialog({ open, title, text, warning = null, confirmLabel, keepLabel, tone = 'primary', busy = false, onConfirm, onClose }: ChoiceDialogProps) {
  return (
    <Modal
      open={open}
      size="small"
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{keepLabel}</Button>
          <Button variant={tone} loading={busy} onClick={onConfirm}>{confirmLabel}</Button>
        </>
      }
    >
      <p>{text}</p>
      {warning && <p className="payments-dialog-warning">{warning}</p>}
    </Modal>
  );
}
