import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import MarkdownText, { safeUrl } from './Markdown.tsx';

describe('markdown', () => {
  it('starts headings at the level the place asks for, one level deeper at a time', () => {
    render(<MarkdownText topHeading={3} source={'# Paso\n\n## Antes\n\n### Detalle\n\n###### Nota'} />);
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['Paso', 'Antes']);
    expect(screen.getByRole('heading', { level: 4, name: 'Detalle' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 6, name: 'Nota' })).toBeTruthy();
  });


  it('renders headings, paragraphs, emphasis and lists', () => {
    const { container } = render(<MarkdownText source={'# Novedades\n\nAhora puedes **programar** robots.\nY más.\n\n- Uno\n- Dos\n\n1. Tres'} />);
    expect(screen.getByRole('heading', { level: 4, name: 'Novedades' })).toBeTruthy();
    expect(container.querySelector('p')?.textContent).toBe('Ahora puedes programar robots.\nY más.');
    expect(container.querySelector('strong')?.textContent).toBe('programar');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Uno', 'Dos', 'Tres']);
  });

  it('drops raw HTML instead of rendering it', () => {
    const { container } = render(<MarkdownText source={'Hola <img src=x onerror=alert(1)> mundo\n\n<script>alert(1)</script>'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).not.toContain('onerror');
    expect(container.textContent).toContain('Hola');
  });

  it('opens web and mail links outside the app, and disarms other URLs', () => {
    render(<MarkdownText source={'[Web](https://autoasesor.es/novedades) [Correo](mailto:soporte@autoasesor.es) [Mal](javascript:alert(1)) [Archivo](file:///etc/passwd)'} />);
    const web = screen.getByRole('link', { name: 'Web' });
    expect(web.getAttribute('href')).toBe('https://autoasesor.es/novedades');
    expect(web.getAttribute('target')).toBe('_blank');
    expect(web.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Correo' }).getAttribute('href')).toBe('mailto:soporte@autoasesor.es');
    expect(screen.queryByRole('link', { name: 'Mal' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Archivo' })).toBeNull();
    expect(screen.getByText('Mal')).toBeTruthy();
  });

  it('shows an image as its alt text, never loading it', () => {
    const { container } = render(<MarkdownText source={'![Nueva pantalla](https://tracker.example/pixel.png)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('Nueva pantalla');
  });

  it('accepts only http(s) and mailto URLs', () => {
    expect(safeUrl('https://a.es', 'href', { type: 'element', tagName: 'a', properties: {}, children: [] })).toBe('https://a.es');
    expect(safeUrl('/relative', 'href', { type: 'element', tagName: 'a', properties: {}, children: [] })).toBeNull();
    expect(safeUrl('data:text/html,<b>', 'href', { type: 'element', tagName: 'a', properties: {}, children: [] })).toBeNull();
  });
});
