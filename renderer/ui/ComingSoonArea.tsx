import type { ReactNode } from 'react';
import { screens } from '../i18n/es-screens.ts';
import { EmptyState } from './EmptyState.tsx';
import { IconTools } from './icons.tsx';
import { PageHeader } from './PageHeader.tsx';

export interface ComingSoonAreaProps {
  title: string;
  /** What the area will do, in one or two sentences. */
  summary: string;
  icon?: ReactNode;
  /** Title of the empty state; "Próximamente" unless the spec gives the area its own wording. */
  emptyTitle?: string;
  /** Shown above the title, e.g. a public page's way back into the app. */
  lead?: ReactNode;
  /** Anything the area can already show honestly, below the empty state. */
  children?: ReactNode;
}

/**
 * The page of an area this version does not provide yet: its title, and an empty state that says
 * what the area is for and that it is not available, instead of pretending to work.
 */
export function ComingSoonArea({ title, summary, icon = <IconTools />, emptyTitle = screens.comingSoonTitle, lead, children }: ComingSoonAreaProps) {
  return (
    <main className="ui-page">
      {lead}
      <PageHeader title={title} />
      <EmptyState icon={icon} title={emptyTitle} text={`${summary} ${screens.notAvailableYet}`} />
      {children}
    </main>
  );
}
