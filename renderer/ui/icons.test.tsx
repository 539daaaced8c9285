import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { ComponentType } from 'react';
import * as icons from './icons.tsx';
import type { IconProps } from './icons.tsx';

afterEach(cleanup);

// Every export of icons.tsx is an icon component.
const all: [string, ComponentType<IconProps>][] = Object.entries(icons);

describe('icons', () => {
  it('exports the icons the screens use', () => {
    expect(all.map(([name]) => name)).toEqual(expect.arrayContaining(['IconMenu', 'IconClose', 'IconTools', 'IconFile', 'IconInbox']));
  });

  it.each(all)('%s draws a decorative 24×24 line svg', (_name, Icon) => {
    const { container } = render(<Icon />);
    const svg = container.querySelector('svg');
    expect(svg).not.toBeNull();
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
    expect(svg?.getAttribute('focusable')).toBe('false');
    expect(svg?.getAttribute('viewBox')).toBe('0 0 24 24');
    expect(svg?.getAttribute('width')).toBe('24');
    expect(svg?.getAttribute('stroke')).toBe('currentColor');
    expect(svg?.querySelectorAll('path, rect, circle').length).toBeGreaterThan(0);
    expect(container.textContent).toBe('');
  });

  it('takes a size and adds the caller’s class to its own', () => {
    const { container } = render(<icons.IconMenu size={18} className="app-topbar__icon" />);
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('width')).toBe('18');
    expect(svg?.getAttribute('height')).toBe('18');
    expect(svg?.getAttribute('class')).toBe('ui-icon app-topbar__icon');
  });
});
