import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithApp } from '../../test/renderApp.tsx';
import { usePrompt } from '../hooks.ts';
import type { CertificateChoice } from '../contexts.ts';
import type { CertificatePromptOptions } from '../contexts.ts';

const farFuture = '2099-01-01T00:00:00Z';

function choice(id: string, name: string, machineName?: string): CertificateChoice {
  return {
    id,
    name,
    machineName,
    certificate: { commonName: name, nifVat: '12345678Z', kind: 'person', issuer: 'AC FNMT Usuarios', notAfter: farFuture, store: 'windows' },
  };
}

function Opener({ options, multiple = false, onAnswer }: { options: CertificatePromptOptions; multiple?: boolean; onAnswer: (answer: unknown) => void }) {
  const prompt = usePrompt();
  const open = () => void (multiple ? prompt.certificates(options) : prompt.certificate(options)).then(onAnswer);
  return <button type="button" onClick={open}>abrir</button>;
}

function openPicker(options: CertificatePromptOptions, multiple = false) {
  const onAnswer = vi.fn();
  renderWithApp(<Opener options={options} multiple={multiple} onAnswer={onAnswer} />);
  fireEvent.click(screen.getByRole('button', { name: 'abrir' }));
  return onAnswer;
}

const six = ['ANA PÉREZ', 'LUIS GÓMEZ', 'ASESORÍA NORTE SL', 'MARTA RUIZ', 'PEDRO SANZ', 'TALLERES SUR SA'].map((name, index) => choice(`c${index}`, name));

describe('the certificate picker', () => {
  it("says 'No tienes certificados' when there are none, or the caller's empty text", async () => {
    const onAnswer = openPicker({ title: 'Elige certificado', certificates: [] });
    expect(await screen.findByText('No tienes certificados')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(null));
  });

  it('confirming with nothing chosen shows the required message and does not close; choosing clears it', async () => {
    const onAnswer = openPicker({ title: 'Elige certificado', certificates: six.slice(0, 2) });
    const accept = await screen.findByRole('button', { name: 'Aceptar' });
    expect(accept.hasAttribute('disabled')).toBe(false);
    fireEvent.click(accept);
    expect(screen.getByRole('alert').textContent).toBe('Necesitas seleccionar un certificado para continuar.');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(onAnswer).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('radio', { name: 'LUIS GÓMEZ' }));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(accept);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(six[1]));
  });

  it('single select: choosing one clears the other, and the rows show the certificate details', async () => {
    const onAnswer = openPicker({ title: 'Elige certificado', certificates: six.slice(0, 3) });
    const ana = (await screen.findByRole('radio', { name: 'ANA PÉREZ' })) as HTMLInputElement;
    const norte = screen.getByRole('radio', { name: 'ASESORÍA NORTE SL' }) as HTMLInputElement;
    fireEvent.click(ana);
    fireEvent.click(norte);
    expect(ana.checked).toBe(false);
    expect(norte.checked).toBe(true);
    expect(screen.getAllByText('Emitido por AC FNMT Usuarios')).toHaveLength(3);
    expect(screen.getAllByText('Caduca el 01/01/2099')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(six[2]));
  });

  it('has no search box with 5 certificates, and one with 6 that ignores case and spaces', async () => {
    openPicker({ title: 'Elige certificado', certificates: six.slice(0, 5) });
    await screen.findByRole('radio', { name: 'ANA PÉREZ' });
    expect(screen.queryByRole('searchbox')).toBeNull();
    cleanup();

    openPicker({ title: 'Elige certificado', certificates: six });
    const search = await screen.findByRole('searchbox', { name: 'Buscar por certificado o dispositivo' });
    fireEvent.change(search, { target: { value: 'asesoríanorte' } });
    expect(screen.getAllByRole('radio')).toEqual([screen.getByRole('radio', { name: 'ASESORÍA NORTE SL' })]);
    fireEvent.change(search, { target: { value: 'nadie' } });
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.getByText('No hay resultados para tu búsqueda')).toBeTruthy();
  });

  it('groups by machine and searches the machine name too', async () => {
    const certificates = [
      choice('m1:a', 'ANA PÉREZ', 'PC Recepción'),
      choice('m1:b', 'LUIS GÓMEZ', 'PC Recepción'),
      choice('m2:a', 'ANA PÉREZ', 'Portátil Marta'),
      choice('m2:c', 'MARTA RUIZ', 'Portátil Marta'),
      choice('m2:d', 'PEDRO SANZ', 'Portátil Marta'),
      choice('m2:e', 'TALLERES SUR SA', 'Portátil Marta'),
    ];
    const onAnswer = openPicker({ title: 'Elige certificado', certificates, note: 'El robot se ejecutará en el dispositivo del certificado.' });
    const reception = await screen.findByRole('group', { name: 'PC Recepción' });
    expect(within(reception).getAllByRole('radio')).toHaveLength(2);
    expect(within(screen.getByRole('group', { name: 'Portátil Marta' })).getAllByRole('radio')).toHaveLength(4);
    expect(screen.getByText('El robot se ejecutará en el dispositivo del certificado.')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'portátil marta ana' } });
    expect(screen.queryByRole('group', { name: 'PC Recepción' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'ANA PÉREZ' }));
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(certificates[2]));
  });

  it('multiple mode: checkboxes, answers every chosen one, and still requires one', async () => {
    const onAnswer = openPicker({ title: 'Elige certificados', certificates: six.slice(0, 3) }, true);
    fireEvent.click(await screen.findByRole('button', { name: 'Aceptar' }));
    expect(screen.getByRole('alert').textContent).toBe('Necesitas seleccionar un certificado para continuar.');
    fireEvent.click(screen.getByRole('checkbox', { name: 'ANA PÉREZ' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'ASESORÍA NORTE SL' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'ANA PÉREZ' }));
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith([six[2]]));
  });

  it('opens with the given certificate already chosen', async () => {
    const onAnswer = openPicker({ title: 'Elige certificado', certificates: six.slice(0, 3), selectedIds: ['c1'] });
    expect(((await screen.findByRole('radio', { name: 'LUIS GÓMEZ' })) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(six[1]));
  });
});
