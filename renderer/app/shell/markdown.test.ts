import { describe, expect, it } from 'vitest';
import { parseMarkdown, plainInline } from './markdown.ts';

describe('parseMarkdown', () => {
  it('splits headings, paragraphs and lists', () => {
    const blocks = parseMarkdown('# Novedades\n\nAhora puedes **programar** robots.\nY más.\n\n- Uno\n- [Dos](https://x.es)\n1. Tres');
    expect(blocks).toEqual([
      { kind: 'heading', text: 'Novedades' },
      { kind: 'paragraph', text: 'Ahora puedes programar robots. Y más.' },
      { kind: 'list', items: ['Uno', 'Dos', 'Tres'] },
    ]);
  });

  it('keeps HTML as literal text for React to escape', () => {
    expect(parseMarkdown('<img src=x onerror=alert(1)>')).toEqual([{ kind: 'paragraph', text: '<img src=x onerror=alert(1)>' }]);
  });

  it('strips inline code and emphasis', () => {
    expect(plainInline('usa `npm` y _ya_')).toBe('usa npm y ya');
  });
});
