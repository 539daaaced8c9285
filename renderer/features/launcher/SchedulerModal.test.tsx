import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithApp } from '../../test/renderApp.tsx';
import { preloadModal } from '../../ui/Modal.tsx';
import { SchedulerModal } from './SchedulerModal.tsx';

// The dialog code loads lazily; fetch it once so the first dialog of a busy run opens in time.
beforeAll(() => preloadModal());

// 10 March 2025, 11:00 in Madrid (UTC+1).
const now = new Date('2025-03-10T10:00:00.000Z');

function open(onSchedule = vi.fn(async () => true), onClose = vi.fn()) {
  renderWithApp(<SchedulerModal open onClose={onClose} onSchedule={onSchedule} now={now} />);
  return { onSchedule, onClose };
}

const dialog = () => screen.findByRole('dialog', { name: 'Elige fecha y hora' }, { timeout: 5000 });
const field = (name: RegExp) => screen.getByLabelText(name);
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Programar tarea' }));

// Each test draws the calendar in jsdom: slow on a busy machine.
describe('SchedulerModal', { timeout: 15_000 }, () => {
  it('starts at the next hour today and says when that is on the Madrid clock', async () => {
    open();
    await dialog();
    expect((field(/^Hora/) as HTMLInputElement).value).toBe('12');
    expect((field(/^Minutos/) as HTMLInputElement).value).toBe('0');
    expect(screen.getByText('Se lanzará el 10/03/2025 12:00 (hora de Madrid).')).toBeTruthy();
  });

  it('offers this year and the next five, and its Repetir label toggles the switch', async () => {
    open();
    await dialog();
    const years = within(screen.getByRole('combobox', { name: 'Año' })).getAllByRole('option');
    expect(years.map((option) => option.textContent)).toEqual(['2025', '2026', '2027', '2028', '2029', '2030']);
    const repeat = screen.getByRole('switch', { name: 'Repetir' });
    fireEvent.click(screen.getByText('Repetir'));
    expect(repeat.getAttribute('aria-checked')).toBe('true');
    expect(field(/^Cada/)).toBeTruthy();
  });

  it('refuses an hour or minute out of range, and sends nothing', async () => {
    const { onSchedule } = open();
    await dialog();
    fireEvent.change(field(/^Hora/), { target: { value: '24' } });
    fireEvent.change(field(/^Minutos/), { target: { value: '75' } });
    submit();
    expect(await screen.findByText('La hora debe ser un número entre 0 y 23')).toBeTruthy();
    expect(screen.getByText('Los minutos deben ser un número entre 0 y 59')).toBeTruthy();
    expect(onSchedule).not.toHaveBeenCalled();
  });

  it('refuses a time already gone', async () => {
    const { onSchedule } = open();
    await dialog();
    fireEvent.change(field(/^Hora/), { target: { value: '9' } });
    submit();
    expect(await screen.findByText('Elige una fecha y hora posteriores a este momento')).toBeTruthy();
    expect(onSchedule).not.toHaveBeenCalled();
  });

  it('a repetition needs a whole number of at least 1', async () => {
    const { onSchedule } = open();
    await dialog();
    fireEvent.click(screen.getByRole('switch', { name: 'Repetir' }));
    fireEvent.change(field(/^Cada/), { target: { value: '0' } });
    submit();
    expect(await screen.findByText('La repetición debe ser un número entero mayor que 0')).toBeTruthy();
    expect(onSchedule).not.toHaveBeenCalled();
  });

  it('sends the Madrid wall-clock time as UTC, with the repetition, and closes when the server takes it', async () => {
    const { onSchedule, onClose } = open();
    const modal = await dialog();
    fireEvent.click(within(modal).getByRole('button', { name: /14 de marzo de 2025/ }));
    fireEvent.change(field(/^Hora/), { target: { value: '18' } });
    fireEvent.change(field(/^Minutos/), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Repetir' }));
    fireEvent.change(field(/^Cada/), { target: { value: '2' } });
    fireEvent.change(field(/^Intervalo/), { target: { value: 'months' } });
    submit();
    await waitFor(() => expect(onSchedule).toHaveBeenCalledWith({ scheduledDate: '2025-03-14T17:30:00.000Z', repeat: true, every: 2, interval: 'months' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('stays open when the server refuses', async () => {
    const { onClose } = open(vi.fn(async () => false));
    await dialog();
    submit();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Programar tarea' }).getAttribute('aria-busy')).toBeNull());
    expect(onClose).not.toHaveBeenCalled();
  });
});
