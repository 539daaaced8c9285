import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element's content is taller than the element (it scrolls), kept up to date as the element
 * is resized (the window, a phone turned) and as its content changes (data arriving). A region that
 * scrolls must be reachable by keyboard (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function useOverflows(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    const observeChildren = () => {
      if (!resized) return;
      resized.disconnect();
      resized.observe(element);
      for (const child of Array.from(element.children)) resized.observe(child);
    };
    observeChildren();
    const changed = new MutationObserver(() => {
      observeChildren();
      measure();
    });
    changed.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      resized?.disconnect();
      changed.disconnect();
    };
  }, [ref]);
  return overflows;
}
