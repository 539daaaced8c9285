import type { ReactNode } from 'react';

/*
 * The renderer's icons: 24×24 line drawings in the text colour. They replace emoji and symbol
 * glyphs, which show as empty boxes on machines without a colour-emoji or symbol font.
 * Icons are always decorative: the button or heading beside them carries the accessible name.
 */

export interface IconProps {
  /** Width and height in pixels. */
  size?: number;
  className?: string;
}

function SvgIcon({ size = 24, className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      className={className ? `ui-icon ${className}` : 'ui-icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

// Window and widget controls

export function IconMenu(props: IconProps) {
  return <SvgIcon {...props}><path d="M4 6h16M4 12h16M4 18h16" /></SvgIcon>;
}

export function IconMinimize(props: IconProps) {
  return <SvgIcon {...props}><path d="M6 12h12" /></SvgIcon>;
}

export function IconMaximize(props: IconProps) {
  return <SvgIcon {...props}><rect x="5.5" y="5.5" width="13" height="13" rx="1.5" /></SvgIcon>;
}

export function IconClose(props: IconProps) {
  return <SvgIcon {...props}><path d="M6.5 6.5l11 11M17.5 6.5l-11 11" /></SvgIcon>;
}

export function IconMinus(props: IconProps) {
  return <SvgIcon {...props}><path d="M5 12h14" /></SvgIcon>;
}

export function IconPlus(props: IconProps) {
  return <SvgIcon {...props}><path d="M12 5v14M5 12h14" /></SvgIcon>;
}

export function IconArrowLeft(props: IconProps) {
  return <SvgIcon {...props}><path d="M19 12H5M11 6l-6 6 6 6" /></SvgIcon>;
}

export function IconChevronLeft(props: IconProps) {
  return <SvgIcon {...props}><path d="M15 6l-6 6 6 6" /></SvgIcon>;
}

export function IconChevronRight(props: IconProps) {
  return <SvgIcon {...props}><path d="M9 6l6 6-6 6" /></SvgIcon>;
}

export function IconChevronDown(props: IconProps) {
  return <SvgIcon {...props}><path d="M6 9l6 6 6-6" /></SvgIcon>;
}

export function IconChevronUp(props: IconProps) {
  return <SvgIcon {...props}><path d="M6 15l6-6 6 6" /></SvgIcon>;
}

/** A column that can be sorted but is not sorted yet. */
export function IconChevronUpDown(props: IconProps) {
  return <SvgIcon {...props}><path d="M8 9.5l4-4 4 4M8 14.5l4 4 4-4" /></SvgIcon>;
}

export function IconSearch(props: IconProps) {
  return <SvgIcon {...props}><circle cx="11" cy="11" r="6.5" /><path d="M16 16l4.5 4.5" /></SvgIcon>;
}

export function IconUpload(props: IconProps) {
  return <SvgIcon {...props}><path d="M12 15V4M7.5 8.5L12 4l4.5 4.5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" /></SvgIcon>;
}

// Status

/** A tick in a circle: something went well. */
export function IconCheck(props: IconProps) {
  return <SvgIcon {...props}><circle cx="12" cy="12" r="9" /><path d="M8 12.5l2.75 2.75L16 10" /></SvgIcon>;
}

export function IconAlert(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M10.3 4.2L2.7 17.5a2 2 0 0 0 1.7 3h15.2a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0z" />
      <path d="M12 9.5v4M12 17h.01" />
    </SvgIcon>
  );
}

export function IconInfo(props: IconProps) {
  return <SvgIcon {...props}><circle cx="12" cy="12" r="9" /><path d="M12 11v5.5M12 7.5h.01" /></SvgIcon>;
}

export function IconHelp(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01" />
    </SvgIcon>
  );
}

// Areas of the application

/** A wrench: an area still being built ("Próximamente"). */
export function IconTools(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M11.94 9.94A4.5 4.5 0 0 1 17.94 3.94L15.64 6.24L17.77 8.36L20.06 6.06A4.5 4.5 0 0 1 14.06 12.06L6.56 19.56A1.5 1.5 0 0 1 4.44 17.44Z" />
    </SvgIcon>
  );
}

export function IconRobot(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <rect x="5" y="8" width="14" height="11" rx="2" />
      <path d="M12 8V5.5M3 12.5v3M21 12.5v3M10 16h4" />
      <circle cx="12" cy="4.5" r="1" />
      <circle cx="9.5" cy="12.5" r="1" />
      <circle cx="14.5" cy="12.5" r="1" />
    </SvgIcon>
  );
}

/** An in-tray: notifications. */
export function IconInbox(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M3 13l2.6-7.2A2 2 0 0 1 7.5 4.5h9a2 2 0 0 1 1.9 1.3L21 13v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
      <path d="M3 13h5l1.5 2.5h5L16 13h5" />
    </SvgIcon>
  );
}

/** Resources and documents. */
export function IconFolder(props: IconProps) {
  return <SvgIcon {...props}><path d="M3 7a2 2 0 0 1 2-2h4l2 2.5h8a2 2 0 0 1 2 2V17a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" /></SvgIcon>;
}

/** The launcher. */
export function IconRocket(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M12 2.5c3 2.5 4.5 6 4.5 10l-1.5 4H9l-1.5-4C7.5 8.5 9 5 12 2.5z" />
      <circle cx="12" cy="10" r="1.75" />
      <path d="M7.7 11.5L5 14.5V19l3.4-2.5M16.3 11.5L19 14.5V19l-3.4-2.5M10.5 19.5l1.5 2 1.5-2" />
    </SvgIcon>
  );
}

/** The recorder: a record button. */
export function IconRecord(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <circle cx="12" cy="12" r="9" />
      <circle cx="12" cy="12" r="4" fill="currentColor" />
    </SvgIcon>
  );
}

/** The scraper: the web. */
export function IconGlobe(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.75 5.6 3.75 9S14.5 18.4 12 21c-2.5-2.6-3.75-5.6-3.75-9S9.5 5.6 12 3z" />
    </SvgIcon>
  );
}

/** A clipboard with lines: forms. */
export function IconForm(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M9 4.5H7a2 2 0 0 0-2 2V19a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V6.5a2 2 0 0 0-2-2h-2" />
      <rect x="9" y="3" width="6" height="3" rx="1" />
      <path d="M8.5 11h7M8.5 14.5h7M8.5 18h4" />
    </SvgIcon>
  );
}

/** People: registrations and deregistrations of workers (altas y bajas). */
export function IconUsers(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6M16 4.7a3.5 3.5 0 0 1 0 6.6M18 14.4c2.1.8 3.5 2.9 3.5 5.6" />
    </SvgIcon>
  );
}

/** A document with a folded corner: FIE files. */
export function IconFile(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M9 13h6M9 17h6" />
    </SvgIcon>
  );
}

/** Building blocks: the smart builder. */
export function IconBlocks(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <rect x="4" y="4" width="7" height="7" rx="1" />
      <rect x="4" y="13" width="7" height="7" rx="1" />
      <rect x="13" y="13" width="7" height="7" rx="1" />
      <path d="M16.5 2.75l3.75 3.75-3.75 3.75-3.75-3.75z" />
    </SvgIcon>
  );
}

/** A lorry: Frumecar's delivery notes. */
export function IconTruck(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M5.25 17.5H4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v10.5M8.75 17.5h6.5" />
      <path d="M14 9.5h3.6l3.4 4v3a1 1 0 0 1-1 1h-1.25" />
      <circle cx="7" cy="17.5" r="1.75" />
      <circle cx="17" cy="17.5" r="1.75" />
    </SvgIcon>
  );
}

/** A screen: the desktop and web modes. */
export function IconMonitor(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </SvgIcon>
  );
}

// Areas without an icon of their own above (home tiles, menu)

export function IconHome(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M3 11l9-7 9 7" />
      <path d="M5 10v10h5v-6h4v6h5V10" />
    </SvgIcon>
  );
}

/** A shelf of books: the Roboteka catalogue. */
export function IconCatalog(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <rect x="3" y="4" width="4" height="16" rx="1" />
      <rect x="9" y="4" width="4" height="16" rx="1" />
      <path d="M15.5 5.2l3.8-1 2.4 15.5-3.8 1z" />
    </SvgIcon>
  );
}

/** A key: certificates and machines shared in the work environment. */
export function IconKey(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <circle cx="8" cy="15" r="4" />
      <path d="M10.8 12.2L20 3" />
      <path d="M16 7l3 3" />
      <path d="M18 5l2 2" />
    </SvgIcon>
  );
}

export function IconMail(props: IconProps) {
  return (
    <SvgIcon {...props}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </SvgIcon>
  );
}
