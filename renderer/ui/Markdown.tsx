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

type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Markdown sits under a heading of the place that shows it, so its '#' and '##' become `top` and
 * deeper headings follow one level at a time (never past h6).
 */
function componentsUnder(top: HeadingLevel): Components {
  const level = (markdownLevel: number) => Math.min(6, top + Math.max(0, markdownLevel - 2)) as HeadingLevel;
  const heading = (markdownLevel: number): Components['h1'] => {
    const Tag = `h${level(markdownLevel)}` as const;
    return ({ children }) => <Tag>{children}</Tag>;
  };
  return {
    h1: heading(1), h2: heading(2), h3: heading(3), h4: heading(4), h5: heading(5), h6: heading(6),
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
    // No remote images: they would load from any server when the text opens. The words stay.
    img: ({ alt }) => (alt ? <span>{alt}</span> : null),
  };
}

const componentsByTop = new Map<HeadingLevel, Components>();

export interface MarkdownTextProps {
  source: string;
  /** The heading level '#' becomes (release notes under the menu: 4; a wizard step under its h2: 3). */
  topHeading?: HeadingLevel;
}

/**
 * Markdown from our own content (release notes, robots' tutorials and instructions) through
 * react-markdown (CommonMark): raw HTML in the source is dropped, not rendered, React escapes
 * everything else, and only web and mail links keep their target. Screens load it lazily.
 */
export default function MarkdownText({ source, topHeading = 4 }: MarkdownTextProps) {
  let components = componentsByTop.get(topHeading);
  if (!components) componentsByTop.set(topHeading, (components = componentsUnder(topHeading)));
  return (
    <Markdown skipHtml urlTransform={safeUrl} components={components}>
      {source}
    </Markdown>
  );
}
