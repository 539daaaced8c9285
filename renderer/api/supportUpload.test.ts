import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../test/fakeXhr.ts';
import { uploadAttachment, UploadRefused } from './supportUpload.ts';

afterEach(() => vi.unstubAllGlobals());

/** A request that answers `status` with `body` once sent, after reporting a quarter of the bytes. */
function answering(status: number, body: unknown) {
  return () =>
    new (class extends FakeXhr {
      send(form: FormData) {
        const file = form.get('file') as File;
        this.answer({ loaded: file.size / 4, total: file.size }, status, body);
      }
    })() as unknown as XMLHttpRequest;
}

const file = new File(['contenido'], 'informe:marzo.pdf', { type: 'application/pdf' });

describe('uploadAttachment', () => {
  it('posts the file to storage and answers it, reporting progress', async () => {
    const progress: number[] = [];
    const stored = await uploadAttachment(file, {
      onProgress: (fraction) => progress.push(fraction),
      createRequest: answering(201, { items: [{ id: 'f1', name: 'informe_marzo.pdf', size: 9 }] }),
    });
    expect(stored).toEqual({ id: 'f1', name: 'informe_marzo.pdf', size: 9 });
    expect(progress).toEqual([0.25]);
  });

  it('rejects with the server’s own reason', async () => {
    const refused = uploadAttachment(file, { createRequest: answering(415, { statusCode: 415, code: 'UNSUPPORTED', message: 'Este tipo de archivo no está permitido' }) });
    await expect(refused).rejects.toEqual(new UploadRefused(415, 'Este tipo de archivo no está permitido'));
  });

  it('after a 401 refreshes the session once and tries again; a lost session says so', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 401 })));
    const lost = uploadAttachment(file, { createRequest: answering(401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'x' }) });
    await expect(lost).rejects.toThrow('Tu sesión ha caducado');

    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 200 })));
    const answers = [answering(401, {}), answering(201, { items: [{ id: 'f2', name: 'a.pdf', size: 1 }] })];
    const stored = await uploadAttachment(file, { createRequest: () => answers.shift()!() });
    expect(stored.id).toBe('f2');
  });
});
