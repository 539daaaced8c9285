// The widgets' stylesheet travels with them, so any screen that uses a widget gets its look.
import './ui.css';

export { Calendar } from './Calendar.tsx';
export type { CalendarProps, RangeCalendarProps, SingleCalendarProps } from './Calendar.tsx';
export type { CalendarEvent, DayKey, DayRange, RepeatRule } from './calendarModel.ts';
export { Button } from './Button.tsx';
export type { ButtonProps, ButtonVariant } from './Button.tsx';
export { ComingSoonArea } from './ComingSoonArea.tsx';
export { FilePicker } from './FilePicker.tsx';
export type { FilePickerProps, FilesPickerProps, FolderPickerProps } from './FilePicker.tsx';
export { EmptyState } from './EmptyState.tsx';
export { ErrorBanner } from './ErrorBanner.tsx';
export type { ErrorData } from './ErrorBanner.tsx';
export { InfoCard } from './InfoCard.tsx';
export { Modal } from './Modal.tsx';
export { PageHeader } from './PageHeader.tsx';
export { Pagination } from './Pagination.tsx';
export { SearchInput } from './SearchInput.tsx';
export { LoadingImage, Spinner } from './Spinner.tsx';
export { SegmentedFilter, Tabs } from './Tabs.tsx';
export type { Choice } from './Tabs.tsx';
export { Stepper } from './Stepper.tsx';
export { Table } from './Table.tsx';
export type { TableColumn } from './Table.tsx';
export type { SortDirection, SortState, SortValue } from './tableModel.ts';
export { Toggle } from './Toggle.tsx';
