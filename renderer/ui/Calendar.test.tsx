import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { Calendar } from './Calendar.tsx';
import type { CalendarEvent, DayRange, RepeatRule } from './calendarModel.ts';

afterEach(cleanup);

const now = new Date('2024-05-15T10:00:00Z');

function SingleHarness({ initial = '2024-05-10', events, repeat }: { initial?: string | null; events?: CalendarEvent[]; repeat?: RepeatRule }) {
  const [day, setDay] = useState<string | null>(initial);
  return (
    <>
      <Calendar value={day} onChange={setDay} now={now} events={events} repeat={repeat} />
      <output aria-label="elegido">{day ?? ''}</output>
    </>
  );
}

function RangeHarness() {
  const [range, setRange] = useState<DayRange>({ start: null, end: null });
  return (
    <>
      <Calendar mode="range" value={range} onChange={setRange} now={now} />
      <output aria-label="rango">{`${range.start ?? ''}|${range.end ?? ''}`}</output>
    </>
  );
}

const grid = () => screen.getByRole('grid');
const dayButton = (name: RegExp | string) => within(grid()).getByRole('button', { name });

describe('Calendar', () => {
  it('shows the month with Monday-first weekday initials', () => {
    render(<SingleHarness />);
    expect(screen.getByRole('grid', { name: 'mayo 2024' })).toBeTruthy();
    // The library hides the initials row from screen readers (each day button says its weekday).
    const headers = Array.from(grid().querySelectorAll('thead th'));
    expect(headers.map((header) => header.textContent)).toEqual(['L', 'M', 'X', 'J', 'V', 'S', 'D']);
    expect(headers.map((header) => header.getAttribute('aria-label'))).toEqual(['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo']);
    // 1 May 2024 is a Wednesday: the first row starts on Monday 29 April.
    const firstRow = grid().querySelector('tbody tr') as HTMLElement;
    expect(within(firstRow).getAllByRole('button')[0]?.getAttribute('aria-label')).toBe('lunes, 29 de abril de 2024');
  });

  it('offers the years 1900 to the current year', () => {
    render(<SingleHarness />);
    const options = within(screen.getByRole('combobox', { name: 'Año' })).getAllByRole('option');
    expect(options[0]?.textContent).toBe('1900');
    expect(options.at(-1)?.textContent).toBe('2024');
  });

  it('offers only the years it is given, e.g. this year and the next few for a schedule', () => {
    render(<Calendar value="2024-06-01" onChange={() => {}} now={now} years={{ from: 2024, to: 2029 }} />);
    const options = within(screen.getByRole('combobox', { name: 'Año' })).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['2024', '2025', '2026', '2027', '2028', '2029']);
  });

  it('moves between months with the buttons and the selectors', () => {
    render(<SingleHarness />);
    fireEvent.click(screen.getByRole('button', { name: 'Mes siguiente' }));
    expect(screen.getByRole('grid', { name: 'junio 2024' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Mes anterior' }));
    fireEvent.click(screen.getByRole('button', { name: 'Mes anterior' }));
    expect(screen.getByRole('grid', { name: 'abril 2024' })).toBeTruthy();
    // The month selector's values count from 0 (react-day-picker): 1 is February.
    fireEvent.change(screen.getByRole('combobox', { name: 'Mes' }), { target: { value: '1' } });
    expect(screen.getByRole('grid', { name: 'febrero 2024' })).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Año' }), { target: { value: '1990' } });
    expect(screen.getByRole('grid', { name: 'febrero 1990' })).toBeTruthy();
  });

  it('does not go past December of the current year', () => {
    render(<SingleHarness initial="2024-12-03" />);
    expect(screen.getByRole('button', { name: 'Mes siguiente' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button', { name: 'Mes anterior' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('selects a single day', () => {
    render(<SingleHarness />);
    fireEvent.click(dayButton('jueves, 23 de mayo de 2024'));
    expect(screen.getByRole('status', { name: 'elegido' }).textContent).toBe('2024-05-23');
    expect(dayButton('jueves, 23 de mayo de 2024').closest('td')?.getAttribute('aria-selected')).toBe('true');
  });

  it('selects a range in two clicks and marks the days between', () => {
    render(<RangeHarness />);
    fireEvent.click(dayButton(/^lunes, 20 de mayo/));
    fireEvent.click(dayButton(/^miércoles, 15 de mayo/));
    expect(screen.getByRole('status', { name: 'rango' }).textContent).toBe('2024-05-15|2024-05-20');
    expect(dayButton(/^viernes, 17 de mayo/).closest('td')?.getAttribute('aria-selected')).toBe('true');
    expect(dayButton(/^martes, 21 de mayo/).closest('td')?.getAttribute('aria-selected')).toBeNull();
    // A third click starts a new range (the shared rule, not the library's).
    fireEvent.click(dayButton(/^jueves, 2 de mayo/));
    expect(screen.getByRole('status', { name: 'rango' }).textContent).toBe('2024-05-02|');
  });

  it('moves the focused day with the keyboard, across months', () => {
    render(<SingleHarness />);
    const selected = dayButton('viernes, 10 de mayo de 2024');
    expect(selected.tabIndex).toBe(0);
    act(() => selected.focus());
    fireEvent.keyDown(selected, { key: 'ArrowRight' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('sábado, 11 de mayo de 2024');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('sábado, 18 de mayo de 2024');
    fireEvent.keyDown(document.activeElement as Element, { key: 'Home' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('lunes, 13 de mayo de 2024');
    fireEvent.keyDown(document.activeElement as Element, { key: 'PageDown' });
    expect(screen.getByRole('grid', { name: 'junio 2024' })).toBeTruthy();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('jueves, 13 de junio de 2024');
    fireEvent.keyDown(document.activeElement as Element, { key: 'Enter' });
    fireEvent.click(document.activeElement as Element);
    expect(screen.getByRole('status', { name: 'elegido' }).textContent).toBe('2024-06-13');
  });

  it('marks days with external events and lists their links on hover', () => {
    const events: CalendarEvent[] = [
      { id: 'a', summary: 'Cierre trimestral', htmlLink: 'https://calendar.example/a', start: { date: '2024-05-20' } },
      { id: 'b', htmlLink: 'https://calendar.example/b', start: { dateTime: '2024-05-20T09:00:00+02:00' } },
    ];
    render(<SingleHarness events={events} />);
    const day = dayButton('lunes, 20 de mayo de 2024, 2 eventos');
    expect(screen.queryByRole('link')).toBeNull();
    fireEvent.mouseEnter(day.closest('td') as HTMLElement);
    const list = screen.getByRole('list', { name: '2 eventos' });
    expect(within(list).getByRole('link', { name: 'Cierre trimestral' }).getAttribute('href')).toBe('https://calendar.example/a');
    expect(within(list).getByRole('link', { name: '(Sin título)' })).toBeTruthy();
    fireEvent.mouseLeave(day.closest('td') as HTMLElement);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('highlights the days a schedule repeats on', () => {
    render(<SingleHarness repeat={{ start: new Date('2024-05-06T07:00:00Z'), every: 7, interval: 'days' }} />);
    const repeating = within(grid()).getAllByRole('button', { name: /se repite$/ }).map((button) => button.textContent);
    // May 2024's grid ends on Sunday 2 June, so the next run (3 June) is not shown.
    expect(repeating).toEqual(['6', '13', '20', '27']);
  });
});
