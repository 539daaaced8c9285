import { vi } from 'vitest';
import { FakeXhr } from '../../../test/fakeXhr.ts';

/** What the fake storage answers for one file: 201 with its id, or a refusal with the server's message. */
export type UploadAnswer = { status: 201 } | { status: number; message: string };

/**
 * Stands in for XMLHttpRequest (the uploads use it for its progress events): each POST to
 * /api/storage/uploads reports half its bytes, then answers as `answer` decides for the file's name.
 * Returns the names sent, in order.
 */
export function fakeUploads(answer: (name: string) => UploadAnswer = () => ({ status: 201 })): string[] {
  const sent: string[] = [];
  class FakeRequest extends FakeXhr {
    send(form: FormData) {
      const file = form.get('file') as File;
      sent.push(file.name);
      queueMicrotask(() => {
        const result = answer(file.name);
        this.answer(
          { loaded: file.size / 2, total: file.size },
          result.status,
          'message' in result ? { statusCode: result.status, code: 'UPLOAD_REFUSED', message: result.message } : { items: [{ id: `f-${file.name}`, name: file.name, size: file.size }] },
        );
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
  return sent;
}
