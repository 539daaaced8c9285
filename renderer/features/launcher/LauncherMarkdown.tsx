import Markdown from 'react-markdown';
import type { Components } from 'react-markdown';
import { safeUrl } from '../../app/shell/markdown.tsx';

const components: Components = {
  // The section title is the page's h2: markdown headings start below it.
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h3>{children}</h3>,
  h3: ({ children }) => <h4>{children}</h4>,
  // Links open outside the app, without a handle on this page.
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  // No remote images in a robot's instructions: the words stay.
  img: ({ alt }) => (alt ? <span>{alt}</span> : null),
};

/** A flow's tutorial or instructions: CommonMark, raw HTML dropped, only web and mail links kept. Loaded lazily. */
export default function LauncherMarkdown({ source }: { source: string }) {
  return (
    <div className="launcher-markdown">
      <Markdown skipHtml urlTransform={safeUrl} components={components}>
        {source}
      </Markdown>
    </div>
  );
}
