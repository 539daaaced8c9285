import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { Controller } from 'react-hook-form';
import { PASSWORD_MESSAGE } from '#shared/api/fields.ts';
import { SCROLL_THROTTLE_MS, possibleMessages, rulesResolver, useAppForm } from './forms.ts';
import type { FormRules } from './forms.ts';
import { TextField } from './TextField.tsx';

type Field = 'email' | 'phone';
const rules: FormRules<Field> = { email: { required: true, rule: 'email' }, phone: { rule: 'tel' } };
const defaultValues: Record<Field, string> = { email: '', phone: '' };

const renderForm = () => renderHook(() => useAppForm({ defaultValues, rules }));
const resolve = (values: Record<Field, string>, fieldRules: FormRules<Field> = rules) =>
  rulesResolver(fieldRules)(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('useAppForm', () => {
  it('asks for a required field that is empty or only blanks', async () => {
    const { result } = renderForm();
    act(() => result.current.setValue('email', '   '));
    await act(() => result.current.trigger('email'));
    expect(result.current.errors.email).toBe('Este campo es obligatorio');
  });

  it('checks the format once something is typed, and leaves an empty optional field alone', async () => {
    const { result } = renderForm();
    await act(() => result.current.trigger('phone'));
    expect(result.current.errors.phone).toBeUndefined();
    act(() => result.current.setValue('phone', '12'));
    await act(() => result.current.trigger('phone'));
    expect(result.current.errors.phone).toBe('Introduce un número de teléfono válido');
  });

  it('lets the form be sent only when every field passes', async () => {
    const { result } = renderForm();
    act(() => result.current.setValue('email', 'ana@'));
    let sendable = true;
    await act(async () => { sendable = await result.current.trigger(); });
    expect(sendable).toBe(false);
    expect(result.current.errors.email).toBe('Introduce una dirección de correo electrónico válida');

    act(() => result.current.setValue('email', 'ana@asesoria.es'));
    await act(async () => { sendable = await result.current.trigger(); });
    expect(sendable).toBe(true);
    expect(result.current.errors).toEqual({});
  });

  it('puts the server’s field issues next to their fields and returns the ones it cannot place', () => {
    const { result } = renderForm();
    const issue = (path: string, message: string) => ({ path, message });
    let message: string | undefined;
    act(() => {
      message = result.current.applyServerError({ status: 400, message: 'Datos no válidos', data: { issues: [issue('email', 'Ese email ya existe')] } });
    });
    expect(result.current.errors.email).toBe('Ese email ya existe');
    expect(message).toBe('Revisa los campos marcados.');

    act(() => {
      message = result.current.applyServerError({ status: 400, message: 'Datos no válidos', data: { issues: [issue('group', 'El grupo no existe')] } });
    });
    expect(message).toBe('El grupo no existe');
    expect(result.current.errors.email).toBeUndefined();
  });

  it('falls back to the server’s message, then to the generic one, when there are no issues', () => {
    const { result } = renderForm();
    expect(result.current.applyServerError({ status: 401, message: 'Email o contraseña incorrectos' })).toBe('Email o contraseña incorrectos');
    expect(result.current.applyServerError(new Error('red caída'))).toBe('Ha ocurrido un error inesperado');
  });
});

describe('possibleMessages', () => {
  it('lists what a field can say before it is sent: presence, then its format', () => {
    expect(possibleMessages({ required: true, rule: 'password' })).toEqual(['Este campo es obligatorio', PASSWORD_MESSAGE]);
    expect(possibleMessages({ rule: 'tel' })).toEqual(['Introduce un número de teléfono válido']);
    expect(possibleMessages({ required: true, rule: 'tel', formatRequired: false })).toEqual(['Este campo es obligatorio']);
    expect(possibleMessages({})).toEqual([]);
  });
});

describe('rulesResolver', () => {
  it('words errors exactly as the shared validators do, and passes valid values through', async () => {
    expect(await resolve({ email: '', phone: '512345678' })).toEqual({
      values: {},
      errors: {
        email: { type: 'validate', message: 'Este campo es obligatorio' },
        phone: { type: 'validate', message: 'Introduce un número de teléfono válido' },
      },
    });
    expect(await resolve({ email: 'ana@asesoria.es', phone: '+34 612 345 678' })).toEqual({
      values: { email: 'ana@asesoria.es', phone: '+34 612 345 678' }, errors: {},
    });
  });

  it('skips the format when formatRequired is off (spec §5: required vs formatRequired)', async () => {
    const loose: FormRules<Field> = { email: { required: true, rule: 'email', formatRequired: false }, phone: { rule: 'tel' } };
    expect((await resolve({ email: 'ana@', phone: '' }, loose)).errors).toEqual({});
  });
});

function SignUpLike({ onValid }: { onValid: (values: Record<Field, string>) => void }) {
  const form = useAppForm({ defaultValues, rules });
  return (
    <form onSubmit={(event) => void form.submit(onValid)(event)} noValidate>
      <TextField label="Email" {...form.field('email')} />
      <Controller control={form.control} name="phone" render={({ field, fieldState }) => (
        <TextField label="Teléfono" name={field.name} value={field.value} ref={field.ref} onBlur={field.onBlur}
          onValueChange={field.onChange} error={fieldState.error?.message} reserve={possibleMessages(rules.phone)} />
      )} />
      <button type="submit">Enviar</button>
    </form>
  );
}

describe('a form on useAppForm with TextField', () => {
  const scrolled = vi.fn();
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    Element.prototype.scrollIntoView = scrolled;
  });
  afterEach(() => {
    vi.useRealTimers();
    scrolled.mockReset();
  });

  const email = () => screen.getByLabelText('Email');
  const phone = () => screen.getByLabelText('Teléfono');
  const send = () => act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Enviar' })); });

  it('shows errors on blur and clears them while the user types the fix, before leaving the field', async () => {
    render(<SignUpLike onValid={vi.fn()} />);
    fireEvent.change(email(), { target: { value: 'ana@' } });
    expect(screen.queryByText('Introduce una dirección de correo electrónico válida')).toBeNull();
    await act(async () => { fireEvent.blur(email()); });
    expect(screen.getByText('Introduce una dirección de correo electrónico válida')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');

    await act(async () => { fireEvent.change(email(), { target: { value: 'ana@asesoria.es' } }); });
    expect(screen.queryByText('Introduce una dirección de correo electrónico válida')).toBeNull();
    expect(email().getAttribute('aria-invalid')).toBeNull();
  });

  it('keeps the error line in place whether or not it holds a message, so nothing below moves', async () => {
    render(<SignUpLike onValid={vi.fn()} />);
    const slot = document.getElementById(email().id + '-error');
    expect(slot?.textContent).toBe('');
    await act(async () => { fireEvent.blur(email()); });
    expect(document.getElementById(email().id + '-error')).toBe(slot);
    expect(slot?.textContent).toBe('Este campo es obligatorio');
    expect(email().getAttribute('aria-describedby')).toBe(slot?.id);
    // The line keeps room for the messages blur can bring (drawn invisibly by ui.css).
    expect(slot?.parentElement?.dataset).toMatchObject({ reserveA: 'Introduce una dirección de correo electrónico válida', reserveB: 'Este campo es obligatorio' });
    expect(document.getElementById(phone().id + '-error')?.parentElement?.dataset).toMatchObject({ reserveA: 'Introduce un número de teléfono válido' });
  });

  it('sends only valid values, and works with a Controller-driven field too', async () => {
    const onValid = vi.fn();
    render(<SignUpLike onValid={onValid} />);
    fireEvent.change(email(), { target: { value: 'ana@asesoria.es' } });
    fireEvent.change(phone(), { target: { value: '512 345 678' } });
    await send();
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByText('Introduce un número de teléfono válido')).toBeTruthy();

    fireEvent.change(phone(), { target: { value: '612 345 678' } });
    await send();
    expect(onValid).toHaveBeenCalledWith({ email: 'ana@asesoria.es', phone: '612 345 678' }, expect.anything());
  });

  it('scrolls to and focuses the first error on submit, at most once a second', async () => {
    render(<SignUpLike onValid={vi.fn()} />);
    fireEvent.change(phone(), { target: { value: '12' } });
    await send();
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(email());
    expect(document.activeElement).toBe(email());

    phone().focus();
    vi.setSystemTime(Date.now() + SCROLL_THROTTLE_MS - 1);
    await send();
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(phone());

    vi.setSystemTime(Date.now() + 1);
    await send();
    expect(scrolled).toHaveBeenCalledTimes(2);
    expect(document.activeElement).toBe(email());
  });
});
