import { lazy, Suspense } from 'react';
import { useActiveNotesQuery } from '../../api/account.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { es } from '../../i18n/es.ts';

// The markdown parser loads only when someone opens the notes, not with the shell on every route.
const MarkdownText = lazy(() => import('../../ui/Markdown.tsx'));

/** Active release notes, rendered from markdown without raw HTML; links open outside the app. */
export function ReleaseNotes() {
  const { data: notes, isLoading, isError } = useActiveNotesQuery();
  if (isLoading) return <Spinner size="small" />;
  if (isError) return <p>{es.common.unexpectedError}</p>;
  if (!notes || notes.length === 0) return <p>{es.sideMenu.noReleaseNotes}</p>;
  return (
    <Suspense fallback={<Spinner size="small" />}>
      <div className="app-notes">
        {notes.map((note) => (
          <article key={note.id} className="app-notes__note">
            <MarkdownText source={note.content} />
          </article>
        ))}
      </div>
    </Suspense>
  );
}
