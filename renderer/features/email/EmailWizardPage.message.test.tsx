/** /email step 1: the stepper, the message checks, the placeholders and the preview, and the machine picker. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SAMPLE_MAIL_VALUES } from '#shared/mail/template.ts';
import { baseRoutes, renderWizard, setUpEmailTests, stubApi, OTHER_MACHINE_ID } from './test/renderEmail.tsx';

setUpEmailTests();

const stepsNav = () => screen.getByRole('navigation', { name: 'Pasos de la configuración' });
const current = () => within(stepsNav()).getAllByRole('listitem').find((item) => item.getAttribute('aria-current') === 'step');

describe('the message step', () => {
  it('opens on step 1 of the stepper with the title, the machine and the default message', async () => {
    stubApi(baseRoutes([]));
    renderWizard();
    expect(screen.getByRole('heading', { level: 1, name: 'Configuración de correo' })).toBeTruthy();
    expect(current()?.textContent).toContain('Mensaje');
    expect(within(stepsNav()).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['1Mensaje', '2Cuenta', '3Resumen']);
    expect(await screen.findByText('PC Oficina')).toBeTruthy();
    expect((screen.getByLabelText('Asunto') as HTMLInputElement).value).toBe('Resultado de [[ROBOT]] del [[DATESTAMP]]');
    expect(screen.queryByRole('button', { name: 'Atrás' })).toBeNull();
  });

  it('refuses to go on without a name or with a bad reply-to, in Spanish, and goes on once fixed', async () => {
    stubApi(baseRoutes([]));
    renderWizard();
    await screen.findByText('PC Oficina');
    fireEvent.change(screen.getByLabelText('Responder a (opcional)'), { target: { value: 'clientes@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Pon un nombre a la configuración')).toBeTruthy();
    expect(screen.getByText('Introduce una dirección de correo electrónico válida')).toBeTruthy();
    expect(current()?.textContent).toContain('Mensaje');

    fireEvent.change(screen.getByLabelText('Nombre de la configuración'), { target: { value: 'Resultados a clientes' } });
    fireEvent.change(screen.getByLabelText('Responder a (opcional)'), { target: { value: 'clientes@asesoria.es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    const heading = await screen.findByRole('heading', { name: 'Conecta la cuenta' });
    expect(current()?.textContent).toContain('Cuenta');
    await waitFor(() => expect(document.activeElement).toBe(heading));

    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    const back = await screen.findByRole('heading', { name: 'Prepara el mensaje' });
    await waitFor(() => expect(document.activeElement).toBe(back));
    // What was written is kept.
    expect((screen.getByLabelText('Nombre de la configuración') as HTMLInputElement).value).toBe('Resultados a clientes');
  });

  it('previews the message with sample values, labelled as an example, and inserts placeholders at the caret', async () => {
    stubApi(baseRoutes([]));
    renderWizard();
    const preview = screen.getByTestId('email-preview');
    expect(screen.getByText('Ejemplo con datos ficticios: al enviar se usan los de cada ejecución.')).toBeTruthy();
    expect(preview.textContent).toContain(`Resultado de ${SAMPLE_MAIL_VALUES.robot} del `);
    expect(preview.textContent).toContain(`Resultado: ${SAMPLE_MAIL_VALUES.result}`);
    expect(preview.textContent).toContain(SAMPLE_MAIL_VALUES.firm);
    expect(preview.textContent).not.toContain('[[');

    const body = screen.getByLabelText('Mensaje') as HTMLTextAreaElement;
    fireEvent.change(body, { target: { value: 'Hola , un saludo' } });
    body.focus();
    body.setSelectionRange(5, 5);
    fireEvent.click(screen.getByRole('button', { name: 'Insertar Nombre del robot' }));
    expect(body.value).toBe('Hola [[ROBOT]], un saludo');
    expect(preview.textContent).toContain(`Hola ${SAMPLE_MAIL_VALUES.robot}, un saludo`);

    const subject = screen.getByLabelText('Asunto') as HTMLInputElement;
    fireEvent.change(subject, { target: { value: 'Informe ' } });
    fireEvent.focus(subject);
    subject.setSelectionRange(8, 8);
    fireEvent.click(screen.getByRole('button', { name: 'Insertar Nombre de tu asesoría' }));
    expect(subject.value).toBe('Informe [[EMPRESA]]');
    expect(preview.textContent).toContain(`Informe ${SAMPLE_MAIL_VALUES.firm}`);
  });

  it('offers the whole firm or a device when the address names none, the firm first, and goes on with either', async () => {
    stubApi(baseRoutes([]));
    renderWizard('/email');
    const picker = (await screen.findByLabelText('Dónde se guarda')) as HTMLSelectElement;
    expect(within(picker).getAllByRole('option').map((option) => option.textContent)).toEqual(['Toda la asesoría (sin dispositivo)', 'PC Oficina', 'Portátil de Ana']);
    expect(screen.getByText(/La usan todos los robots de tu asesoría/)).toBeTruthy();
    fireEvent.change(picker, { target: { value: OTHER_MACHINE_ID } });
    expect(screen.getByText('La configuración se guarda en este dispositivo y la usan los robots que se lanzan en él.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nombre de la configuración'), { target: { value: 'Resultados' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByRole('heading', { name: 'Conecta la cuenta' })).toBeTruthy();
  });

  it('says so when the machine of the address is not one of the caller’s', async () => {
    stubApi(baseRoutes([]));
    renderWizard('/email?machine=99999999-9999-4999-8999-999999999999');
    expect(await screen.findByText('Ese dispositivo no existe o no lo puedes ver. Elige otro.')).toBeTruthy();
  });
});
