/** /fie: uploading FIE files, the one §8 toast per upload and the failed files' reasons. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FieUploadResponse, FieUploadResult } from '#shared/api/fie.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { listOf, renderFie, setUpFieTests, shownToasts, stubApi, uploadAnswer } from './test/renderFie.tsx';

setUpFieTests();

const result = (fileName: string, status: FieUploadResult['status'], reason: string | null = null): FieUploadResult => ({
  fileName, status, documentId: status === 'failed' ? null : `doc-${fileName}`, entries: status === 'failed' ? 0 : 3, linkedEntries: 0, reason,
});

function answerOf(results: FieUploadResult[]): FieUploadResponse {
  const count = (status: FieUploadResult['status']) => results.filter((item) => item.status === status).length;
  return { results, processed: count('processed'), failed: count('failed'), alreadyAdded: count('already-added') };
}

const file = (name: string) => new File(['ETI...'], name, { type: 'text/plain' });
// The hidden input is reached through the 'Elegir archivos' button: it is not announced as a second one (issue 43, 9).
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;
const chooseFiles = (files: File[]) => fireEvent.change(fileInput(), { target: { files } });

describe('FiePage upload', () => {
  it('has one "Elegir archivos" for assistive technology: the hidden file input is not a second one', async () => {
    stubApi({ 'GET /api/fie': listOf([]) });
    renderFie();
    await screen.findByRole('button', { name: 'Elegir archivos' });
    expect(screen.getAllByRole('button', { name: 'Elegir archivos' })).toHaveLength(1);
    expect(screen.queryByLabelText('Elegir archivos')).toBeNull();
    expect(fileInput().getAttribute('aria-hidden')).toBe('true');
  });

  it('sends every chosen file in one multipart request (field files) and shows one toast with a line per outcome', async () => {
    const calls = stubApi({
      'GET /api/fie': listOf([]),
      'POST /api/fie/upload': uploadAnswer(answerOf([
        result('bueno.txt', 'processed'), result('otro.fie', 'processed'), result('foto.xlsx', 'failed', 'El archivo no es un FIE'), result('repetido.txt', 'already-added'),
      ])),
    });
    const { store } = renderFie();
    await screen.findByText('Todavía no has subido ningún FIE');
    chooseFiles([file('bueno.txt'), file('otro.fie'), file('foto.xlsx'), file('repetido.txt')]);
    expect(await screen.findByText('Subiendo 4 archivos…')).toBeTruthy();

    await waitFor(() => expect(shownToasts()).toHaveLength(1));
    expect(shownToasts()[0]).toEqual({
      kind: 'success',
      lines: ['Se han procesado 2 FIEs.', 'Un archivo no se ha podido procesar.', 'Un archivo se ha añadido anteriormente.'],
    });
    // Spec §9: the FIE processing toast stays 5 s.
    expect(store.getState().toasts.items.map((toast) => toast.durationMs)).toEqual([5000]);
    const upload = calls.find((call) => call.key === 'POST /api/fie/upload');
    const form = upload?.init?.body as FormData;
    expect(form.getAll('files').map((part) => (part as File).name)).toEqual(['bueno.txt', 'otro.fie', 'foto.xlsx', 'repetido.txt']);
    // The failed file's reason stays under the drop zone.
    const failures = screen.getByRole('heading', { name: 'Archivos no procesados' }).closest('div')?.parentElement as HTMLElement;
    expect(within(failures).getByRole('listitem').textContent).toBe('foto.xlsx: El archivo no es un FIE');
    // A processed file refreshes the list.
    await waitFor(() => expect(calls.filter((call) => call.key === 'GET /api/fie')).toHaveLength(2));
    expect(screen.queryByText('Subiendo 4 archivos…')).toBeNull();
  });

  it.each([
    ['one processed file', [result('a.txt', 'processed')], 'success', ['Se ha procesado un FIE.']],
    ['one file that is not a FIE', [result('a.pdf', 'failed', 'No es un FIE')], 'error', ['Este archivo no se ha podido procesar.']],
    ['one file added before', [result('a.txt', 'already-added')], 'error', ['Este archivo ya se ha añadido anteriormente.']],
    ['two files, both failed', [result('a', 'failed', 'x'), result('b', 'failed', 'y')], 'error', ['No se ha procesado ningún archivo.']],
    ['two files, both added before', [result('a', 'already-added'), result('b', 'already-added')], 'error', ['Estos archivos ya se han añadido anteriormente.']],
    [
      'three files: one failed, two added before',
      [result('a', 'failed', 'x'), result('b', 'already-added'), result('c', 'already-added')],
      'error',
      ['Un archivo no se ha podido procesar.', 'Se han añadido 2 archivos previamente.'],
    ],
  ] as const)('%s: the §8 toast says so', async (_name, results, kind, lines) => {
    stubApi({ 'GET /api/fie': listOf([]), 'POST /api/fie/upload': uploadAnswer(answerOf([...results])) });
    const { store } = renderFie();
    await screen.findByText('Todavía no has subido ningún FIE');
    chooseFiles(results.map((item) => file(item.fileName)));
    await waitFor(() => expect(shownToasts()).toEqual([{ kind, lines }]));
    expect(store.getState().toasts.items[0]?.durationMs).toBe(5000);
  });

  it('accepts files dropped on the zone', async () => {
    const calls = stubApi({ 'GET /api/fie': listOf([]), 'POST /api/fie/upload': uploadAnswer(answerOf([result('a.txt', 'processed')])) });
    renderFie();
    await screen.findByText('Todavía no has subido ningún FIE');
    // As a browser's drop of files: its types say 'Files'.
    fireEvent.drop(screen.getByTestId('fie-drop-zone'), { dataTransfer: { files: [file('a.txt')], types: ['Files'] } });
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'success', lines: ['Se ha procesado un FIE.'] }]));
    expect(calls.filter((call) => call.key === 'POST /api/fie/upload')).toHaveLength(1);
  });

  it("a refused request shows the server's message as an error toast", async () => {
    stubApi({
      'GET /api/fie': listOf([]),
      'POST /api/fie/upload': () => jsonResponse(413, { statusCode: 413, code: 'TOO_LARGE', message: 'Como mucho 50 archivos por subida' }),
    });
    renderFie();
    await screen.findByText('Todavía no has subido ningún FIE');
    chooseFiles([file('a.txt')]);
    await waitFor(() => expect(shownToasts()).toEqual([{ kind: 'error', lines: ['Como mucho 50 archivos por subida'] }]));
  });
});
