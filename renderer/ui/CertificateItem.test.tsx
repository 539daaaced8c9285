import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { CertificateItem, expiryStatus } from './CertificateItem.tsx';
import type { CertificateItemData } from './CertificateItem.tsx';

// 10:00 in Madrid (CET) on 1 February 2026.
const now = new Date('2026-02-01T09:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000 + 3_600_000).toISOString();

const certificate = (overrides: Partial<CertificateItemData> = {}): CertificateItemData => ({
  commonName: 'GARCIA LOPEZ ANA - 12345678Z',
  nifVat: '12345678Z',
  kind: 'person',
  issuer: 'AC FNMT Usuarios',
  notAfter: '2027-03-15T22:30:00Z',
  store: 'windows',
  ...overrides,
});

describe('CertificateItem', () => {
  it('shows the name, NIF, kind, issuer, store and the Madrid expiry date', () => {
    render(<CertificateItem certificate={certificate()} now={now} />);
    expect(screen.getByText('GARCIA LOPEZ ANA - 12345678Z')).toBeTruthy();
    expect(screen.getByText('12345678Z')).toBeTruthy();
    expect(screen.getByText('Persona física')).toBeTruthy();
    expect(screen.getByText('Emitido por AC FNMT Usuarios')).toBeTruthy();
    expect(screen.getByText('Almacén de Windows')).toBeTruthy();
    // 22:30 UTC on 15 March is 23:30 in Madrid, still the 15th; far away, so no chip.
    expect(screen.getByText('Caduca el 15/03/2027')).toBeTruthy();
    expect(document.querySelector('.ui-chip')).toBeNull();
  });

  it('uses the Madrid day, not the UTC one', () => {
    render(<CertificateItem certificate={certificate({ notAfter: '2027-06-30T23:30:00Z' })} now={now} />);
    expect(screen.getByText('Caduca el 01/07/2027')).toBeTruthy();
  });

  it('names the machine instead of the store when given, and says when there is no NIF', () => {
    render(<CertificateItem certificate={certificate({ nifVat: null, kind: 'seal' })} machineName="PC Recepción" now={now} />);
    expect(screen.getByText('PC Recepción')).toBeTruthy();
    expect(screen.queryByText('Almacén de Windows')).toBeNull();
    expect(screen.getByText('Sin NIF')).toBeTruthy();
    expect(screen.getByText('Sello')).toBeTruthy();
  });

  it.each([
    [-3, 'Caducado', 'danger'],
    [0, 'Caduca hoy', 'danger'],
    [1, 'Caduca mañana', 'danger'],
    [7, 'Caduca en 7 días', 'danger'],
    [8, 'Caduca en 8 días', 'warning'],
    [30, 'Caduca en 30 días', 'warning'],
    [31, 'Caduca en 31 días', 'notice'],
    [60, 'Caduca en 60 días', 'notice'],
  ])('%i days away reads "%s" in %s', (days, label, tone) => {
    render(<CertificateItem certificate={certificate({ notAfter: inDays(days) })} now={now} />);
    const chip = screen.getByText(label);
    expect(chip.className).toContain(`ui-chip--${tone}`);
  });

  it('has no chip beyond 60 days, and an expired one reads "Caducó el"', () => {
    expect(expiryStatus(inDays(61), now).chip).toBeNull();
    expect(expiryStatus('2026-01-20T12:00:00Z', now).dateText).toBe('Caducó el 20/01/2026');
  });

  it('is a labelled radio when selectable: clicking anywhere on the row chooses it', () => {
    const onChange = vi.fn();
    render(<CertificateItem certificate={certificate()} now={now} selection={{ type: 'radio', name: 'cert', checked: false, onChange }} />);
    const radio = screen.getByRole('radio', { name: 'GARCIA LOPEZ ANA - 12345678Z' });
    expect(radio.getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(screen.getByText('Emitido por AC FNMT Usuarios'));
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('can be a checkbox, and reports unchecking', () => {
    const onChange = vi.fn();
    render(<CertificateItem certificate={certificate()} now={now} selection={{ type: 'checkbox', checked: true, onChange }} />);
    const checkbox = screen.getByRole('checkbox', { name: 'GARCIA LOPEZ ANA - 12345678Z' }) as HTMLInputElement;
    expect(checkbox.checked).toBe(true);
    fireEvent.click(checkbox);
    expect(onChange).toHaveBeenCalledWith(false);
  });

  it('has no control without a selection, and staggers its entry by 40 ms per index', () => {
    const { container } = render(<CertificateItem certificate={certificate()} now={now} index={3} />);
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    const row = container.querySelector<HTMLElement>('.ui-certificate');
    expect(row?.style.getPropertyValue('--ui-certificate-delay')).toBe('120ms');
    expect(row?.className).toContain('ui-certificate--animated');
  });
});
