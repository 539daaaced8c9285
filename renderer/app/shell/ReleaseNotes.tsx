import { useActiveNotesQuery } from '../../api/account.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { es } from '../../i18n/es.ts';
import { parseMarkdown } from './markdown.ts';

/** Active release notes; markdown becomes text blocks, so no HTML from the server reaches the page. */
export function ReleaseNotes() {
  const { data: notes, isLoading, isError } = useActiveNotesQuery();
  if (isLoading) return <Spinner size="small" />;
  if (isError) return <p>{es.common.unexpectedError}</p>;
  if (!notes || notes.length === 0) return <p>{es.sideMenu.noReleaseNotes}</p>;
  return (
    <div className="app-notes">
      {notes.map((note) => (
        <article key={note.id} className="app-notes__note">
          {parseMarkdown(note.content).map((block, index) => {
            if (block.kind === 'heading') return <h4 key={index}>{block.text}</h4>;
            if (block.kind === 'paragraph') return <p key={index}>{block.text}</p>;
            return (
              <ul key={index}>
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>{item}</li>
                ))}
              </ul>
            );
          })}
        </article>
      ))}
    </div>
  );
}
