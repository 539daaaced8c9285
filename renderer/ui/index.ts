// The widgets' stylesheet travels with them, so any screen that uses a widget gets its look.
import './ui.css';

// Widgets built on libraries (Calendar, Modal, Tabs/SegmentedFilter, Table/Pagination, Menu, Popover,
// ComboBox) are imported from their own files, never re-exported here: most screens import this
// barrel, and the libraries must load only with the routes that use them.

export { Button } from './Button.tsx';
export type { ButtonProps, ButtonVariant } from './Button.tsx';
export { ComingSoonArea } from './ComingSoonArea.tsx';
export { CertificateItem, expiryStatus } from './CertificateItem.tsx';
export type { CertificateItemData, CertificateItemProps, CertificateSelection, ExpiryStatus, ExpiryTone } from './CertificateItem.tsx';
export { FilePicker } from './FilePicker.tsx';
export type { FilePickerProps, FilesPickerProps, FolderPickerProps } from './FilePicker.tsx';
export { EmptyState } from './EmptyState.tsx';
export { ErrorBanner } from './ErrorBanner.tsx';
export type { ErrorData } from './ErrorBanner.tsx';
export * from './icons.tsx';
export { InfoCard } from './InfoCard.tsx';
export { PageHeader } from './PageHeader.tsx';
export { SearchInput } from './SearchInput.tsx';
export { LoadingImage, Spinner } from './Spinner.tsx';
export { Stepper } from './Stepper.tsx';
export { SubscriptionStatusCard } from './SubscriptionStatusCard.tsx';
export type { SubscriptionStatusCardProps } from './SubscriptionStatusCard.tsx';
export { TextField } from './TextField.tsx';
export type { TextFieldProps } from './TextField.tsx';
export { Toggle } from './Toggle.tsx';
export { PageCertificateField } from './PageCertificateField.tsx';
