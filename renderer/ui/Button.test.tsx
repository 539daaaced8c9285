import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Button } from './Button.tsx';

afterEach(cleanup);

describe('Button', () => {
  it('is a real button that reports clicks', () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Guardar</Button>);
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('does not submit forms unless asked to', () => {
    render(<Button>Guardar</Button>);
    expect(screen.getByRole('button').getAttribute('type')).toBe('button');
  });

  it('applies the variant class', () => {
    render(<Button variant="danger">Eliminar</Button>);
    expect(screen.getByRole('button', { name: 'Eliminar' }).className).toContain('ui-button--danger');
  });

  it('while loading, announces aria-busy and ignores clicks', () => {
    const onClick = vi.fn();
    render(<Button loading onClick={onClick}>Enviar</Button>);
    const button = screen.getByRole('button', { name: 'Enviar' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('is not busy by default', () => {
    render(<Button>Enviar</Button>);
    expect(screen.getByRole('button').hasAttribute('aria-busy')).toBe(false);
  });
});
