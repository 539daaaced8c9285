import { describe, expect, it, vi } from 'vitest';
import { UploadError, uploadFiles } from './upload.ts';

/** One fake request per answer, in order; records what was sent. */
function requests(...answers: { status: number; body?: unknown; fail?: boolean }[]) {
  const sent: { url: string; form: FormData; withCredentials: boolean; headers: Record<string, string> }[] = [];
  let index = 0;
  const createRequest = () => {
    const answer = answers[index++] ?? answers.at(-1)!;
    const request = {
      upload: { onprogress: null as ((event: ProgressEvent) => void) | null },
      onload: null as (() => void) | null,
      onerror: null as (() => void) | null,
      onabort: null as (() => void) | null,
      status: 0, responseText: '', withCredentials: false, url: '', headers: {} as Record<string, string>,
      open(_method: string, url: string) { this.url = url; },
      setRequestHeader(name: string, value: string) { this.headers[name] = value; },
      abort() { this.onabort?.(); },
      send(form: FormData) {
        sent.push({ url: this.url, form, withCredentials: this.withCredentials, headers: this.headers });
        this.upload.onprogress?.({ lengthComputable: true, loaded: 3, total: 4 } as ProgressEvent);
        if (answer.fail) { this.onerror?.(); return; }
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body ?? {});
        this.onload?.();
      },
    };
    return request as unknown as XMLHttpRequest;
  };
  return { sent, createRequest };
}

const file = (name: string) => new File(['a;b\n1;2'], name, { type: 'text/csv' });
const stored = { items: [{ id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', name: 'datos.csv', size: 7 }] };

describe('uploadFiles', () => {
  it("posts every file as a 'file' part with a normalised name, cookies and the client headers, and reports progress", async () => {
    const { sent, createRequest } = requests({ status: 201, body: stored });
    const onProgress = vi.fn();
    await expect(uploadFiles([file('  datos?.csv.')], { createRequest, onProgress })).resolves.toEqual(stored.items);
    expect(sent[0]?.url).toBe('/api/storage/uploads');
    expect(sent[0]?.withCredentials).toBe(true);
    expect(Object.keys(sent[0]?.headers ?? {}).length).toBeGreaterThan(0);
    expect((sent[0]?.form.getAll('file')[0] as File).name).toBe('datos.csv');
    expect(onProgress).toHaveBeenCalledWith(0.75);
  });

  it("rejects with the server's Spanish message on 413 and 415", async () => {
    const message = 'Los archivos ocupan 120 MB y el máximo permitido es 100 MB.';
    const { createRequest } = requests({ status: 413, body: { statusCode: 413, code: 'TOO_LARGE', message } });
    await expect(uploadFiles([file('a.csv')], { createRequest })).rejects.toEqual(new UploadError(413, message));
  });

  it('refreshes an expired session once and sends again', async () => {
    const { sent, createRequest } = requests({ status: 401, body: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Inicia sesión' } }, { status: 201, body: stored });
    const refreshSession = vi.fn(async () => true);
    await expect(uploadFiles([file('a.csv')], { createRequest, refreshSession })).resolves.toEqual(stored.items);
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(2);
  });

  it('says the session ended when the refresh fails, and when the network is gone says so too', async () => {
    const expired = requests({ status: 401, body: {} });
    await expect(uploadFiles([file('a.csv')], { createRequest: expired.createRequest, refreshSession: async () => false }))
      .rejects.toMatchObject({ status: 401, message: 'Tu sesión ha caducado. Vuelve a iniciar sesión para subir el archivo.' });
    const offline = requests({ status: 0, fail: true });
    await expect(uploadFiles([file('a.csv')], { createRequest: offline.createRequest })).rejects.toMatchObject({ status: 0 });
  });
});
