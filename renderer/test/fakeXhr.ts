/**
 * XMLHttpRequest as the uploads use it (for its progress events), for tests to stand in with:
 * the fields and calls they touch, and `answer` to report progress and then load with a JSON body.
 * A test's subclass decides in `send` what each request gets.
 */
export abstract class FakeXhr {
  status = 0;
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  url = '';

  open(_method: string, url: string): void {
    this.url = url;
  }

  setRequestHeader(): void {}

  abort(): void {
    this.onabort?.();
  }

  abstract send(form: FormData): void;

  /** One progress event of `loaded` out of `total` bytes, then the answer. */
  protected answer(progress: { loaded: number; total: number }, status: number, body: unknown): void {
    this.upload.onprogress?.({ lengthComputable: true, ...progress });
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}
