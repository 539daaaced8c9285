import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Stepper } from './Stepper.tsx';

afterEach(cleanup);

function Harness({ initial = 0, min, max }: { initial?: number; min?: number; max?: number }) {
  const [value, setValue] = useState(initial);
  return <Stepper label="Repetir cada" value={value} onChange={setValue} min={min} max={max} />;
}

const spin = () => screen.getByRole('spinbutton', { name: 'Repetir cada' }) as HTMLInputElement;

describe('Stepper', () => {
  it('exposes its value and the default 0-50 range', () => {
    render(<Harness initial={3} />);
    expect(spin().value).toBe('3');
    expect(spin().getAttribute('aria-valuenow')).toBe('3');
    expect(spin().getAttribute('aria-valuemin')).toBe('0');
    expect(spin().getAttribute('aria-valuemax')).toBe('50');
  });

  it('steps with the buttons and wraps at the ends', () => {
    render(<Harness initial={49} />);
    fireEvent.click(screen.getByRole('button', { name: 'Aumentar' }));
    expect(spin().value).toBe('50');
    fireEvent.click(screen.getByRole('button', { name: 'Aumentar' }));
    expect(spin().value).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'Disminuir' }));
    expect(spin().value).toBe('50');
  });

  it('steps with the arrow keys and jumps with Home and End', () => {
    render(<Harness initial={23} min={0} max={23} />);
    fireEvent.keyDown(spin(), { key: 'ArrowUp' });
    expect(spin().value).toBe('0');
    fireEvent.keyDown(spin(), { key: 'ArrowDown' });
    expect(spin().value).toBe('23');
    fireEvent.keyDown(spin(), { key: 'Home' });
    expect(spin().value).toBe('0');
    fireEvent.keyDown(spin(), { key: 'End' });
    expect(spin().value).toBe('23');
  });

  it('clamps a typed value into the range when it is committed', () => {
    render(<Harness initial={5} />);
    fireEvent.change(spin(), { target: { value: '80' } });
    expect(spin().value).toBe('80');
    fireEvent.blur(spin());
    expect(spin().value).toBe('50');
    fireEvent.change(spin(), { target: { value: '12' } });
    fireEvent.keyDown(spin(), { key: 'Enter' });
    expect(spin().getAttribute('aria-valuenow')).toBe('12');
  });

  it('goes back to the value when what was typed is not a number', () => {
    render(<Harness initial={7} />);
    fireEvent.change(spin(), { target: { value: 'abc' } });
    fireEvent.blur(spin());
    expect(spin().value).toBe('7');
  });
});
