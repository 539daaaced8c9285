import { useEffect, useRef, useState, type ReactNode } from 'react';
import { billing } from '../../i18n/es-billing.ts';

type Edge = 'none' | 'start' | 'middle' | 'end';

/** Where a box scrolled sideways is: 'none' when everything fits, else which edges still hide columns. */
function edgeOf(element: HTMLElement): Edge {
  const hidden = element.scrollWidth - element.clientWidth;
  if (hidden <= 1) return 'none';
  if (element.scrollLeft <= 1) return 'start';
  return element.scrollLeft >= hidden - 1 ? 'end' : 'middle';
}

/**
 * A table too wide for a phone scrolls sideways inside its own box, and says so: a line above it ('Desliza
 * la tabla…') while columns are out of sight, a shade on the side where they are, and its first column
 * (the date) kept in place (payments.css). The box is a keyboard-reachable region of its own name.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [edge, setEdge] = useState<Edge>('none');
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => setEdge(edgeOf(element));
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resized?.observe(element);
    const table = element.firstElementChild;
    if (table) resized?.observe(table);
    return () => {
      element.removeEventListener('scroll', measure);
      resized?.disconnect();
    };
  }, []);
  return (
    <div className="payments-table-box">
      {edge !== 'none' && <p className="payments-scroll-cue">{billing.scrollCue}</p>}
      <div ref={box} className={`ui-table-wrap payments-scroll payments-scroll--${edge}`} role="region" aria-label={label} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
