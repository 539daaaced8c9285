import type { ReactNode } from 'react';

/** A Modal's props, apart so that Modal and the dialog it loads lazily (ModalDialog) both name them without importing each other. */
export interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children?: ReactNode;
  /** Buttons at the foot of the dialog. */
  footer?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  /** False for a dialog the user must not get past (a forced update): no close button, Escape or backdrop click. */
  dismissable?: boolean;
}
