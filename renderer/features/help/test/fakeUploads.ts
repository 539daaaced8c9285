import { vi } from 'vitest';

/** What the fake storage answers for one file: 201 with its id, or a refusal with the server's message. */
export type UploadAnswer = { status: 201 } | { status: number; message: string };

/**
 * Stands in for XMLHttpRequest (the uploads use it for its progress events): each POST to
 * /api/storage/uploads reports half its bytes, then answers as `answer` decides for the file's name.
 * Returns the names sent, in order.
 */
export function fakeUploads(answer: (name: string) => UploadAnswer = () => ({ status: 201 })): string[] {
  const sent: string[] = [];
  class FakeRequest {
    status = 0;
    responseText = '';
    withCredentials = false;
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    abort() {
      this.onabort?.();
    }
    send(form: FormData) {
      const file = form.get('file') as File;
      sent.push(file.name);
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: file.size / 2, total: file.size });
        const result = answer(file.name);
        this.status = result.status;
        this.responseText = JSON.stringify(
          'message' in result
            ? { statusCode: result.status, code: 'UPLOAD_REFUSED', message: result.message }
            : { items: [{ id: `f-${file.name}`, name: file.name, size: file.size }] },
        );
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
  return sent;
}
