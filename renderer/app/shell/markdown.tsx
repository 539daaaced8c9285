import Markdown from 'react-markdown';
import type { Components, UrlTransform } from 'react-markdown';

/** Only web and mail links survive; anything else (javascript:, data:, file:, relative paths) loses its target. */
export const safeUrl: UrlTransform = (url) => {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' || protocol === 'mailto:' ? url : null;
  } catch {
    return null;
  }
};

const components: Components = {
  // Notes sit under the menu's own heading: their headings start one level below it.
  h1: ({ children }) => <h4>{children}</h4>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
  h4: ({ children }) => <h5>{children}</h5>,
  h5: ({ children }) => <h6>{children}</h6>,
  h6: ({ children }) => <h6>{children}</h6>,
  // Links leave the app (the desktop shell hands _blank windows to the system browser), without
  // giving the opened page a handle on this one.
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  // No remote images: they would load from any server when the menu opens. The words stay.
  img: ({ alt }) => (alt ? <span>{alt}</span> : null),
};

/**
 * Release-note markdown through react-markdown (CommonMark): raw HTML in the source is dropped, not
 * rendered, and React escapes everything else. Loaded lazily by ReleaseNotes.
 */
export default function MarkdownText({ source }: { source: string }) {
  return (
    <Markdown skipHtml urlTransform={safeUrl} components={components}>
      {source}
    </Markdown>
  );
}
