import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useForm } from './forms.ts';
import type { FormRules } from './forms.ts';

type Field = 'email' | 'phone';
const rules: FormRules<Field> = { email: { required: true, rule: 'email' }, phone: { rule: 'tel' } };
const initial: Record<Field, string> = { email: '', phone: '' };

const renderForm = () => renderHook(() => useForm(initial, rules));

describe('useForm', () => {
  it('asks for a required field that is empty or only blanks', () => {
    const { result } = renderForm();
    act(() => result.current.setValue('email', '   '));
    act(() => result.current.validateField('email'));
    expect(result.current.errors.email).toBe('Este campo es obligatorio');
  });

  it('checks the format once something is typed, and leaves an empty optional field alone', () => {
    const { result } = renderForm();
    act(() => result.current.validateField('phone'));
    expect(result.current.errors.phone).toBeUndefined();
    act(() => result.current.setValue('phone', '12'));
    act(() => result.current.validateField('phone'));
    expect(result.current.errors.phone).toBe('Introduce un número de teléfono válido');
  });

  it('lets the form be sent only when every field passes', () => {
    const { result } = renderForm();
    act(() => result.current.setValue('email', 'ana@'));
    let sendable = true;
    act(() => { sendable = result.current.validateAll(); });
    expect(sendable).toBe(false);
    expect(result.current.errors.email).toBe('Introduce una dirección de correo electrónico válida');

    act(() => result.current.setValue('email', 'ana@asesoria.es'));
    act(() => { sendable = result.current.validateAll(); });
    expect(sendable).toBe(true);
    expect(result.current.errors).toEqual({ email: undefined, phone: undefined });
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
});
