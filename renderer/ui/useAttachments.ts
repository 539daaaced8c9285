import { useCallback, useEffect, useRef, useState } from 'react';

/** What stores one file and answers its id; it rejects with an Error whose message the user reads. */
export type AttachmentUploader = (file: File, options: { onProgress: (fraction: number) => void; signal: AbortSignal }) => Promise<{ id: string }>;

export interface Attachment {
  key: number;
  file: File;
  /** 0..1 while it uploads. */
  progress: number;
  state: 'uploading' | 'done' | 'failed';
  /** The stored file's id, once uploaded. */
  fileId?: string;
  /** The server's refusal, in Spanish, when it failed. */
  error?: string;
}

/**
 * The files a message will carry, each uploaded as soon as it is picked (so each shows its own
 * progress and its own refusal). At most `max`: a pick that would pass it adds nothing and says so.
 * Removing a file still uploading cancels it.
 */
export function useAttachments(upload: AttachmentUploader, max: number) {
  const [items, setItems] = useState<Attachment[]>([]);
  const [tooMany, setTooMany] = useState(false);
  const nextKey = useRef(0);
  const uploads = useRef(new Map<number, AbortController>());

  const update = (key: number, change: Partial<Attachment>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const start = (item: Attachment) => {
    const controller = new AbortController();
    uploads.current.set(item.key, controller);
    upload(item.file, { signal: controller.signal, onProgress: (progress) => update(item.key, { progress }) })
      .then((stored) => update(item.key, { state: 'done', progress: 1, fileId: stored.id }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) update(item.key, { state: 'failed', error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => uploads.current.delete(item.key));
  };

  const add = (files: readonly File[]) => {
    if (files.length === 0) return;
    if (items.length + files.length > max) {
      setTooMany(true);
      return;
    }
    setTooMany(false);
    const added = files.map((file): Attachment => ({ key: nextKey.current++, file, progress: 0, state: 'uploading' }));
    setItems((current) => [...current, ...added]);
    added.forEach(start);
  };

  const remove = (key: number) => {
    uploads.current.get(key)?.abort();
    setTooMany(false);
    setItems((current) => current.filter((item) => item.key !== key));
  };

  /** After sending: the next message starts with none. */
  const clear = useCallback(() => {
    setItems([]);
    setTooMany(false);
  }, []);

  // Leaving the screen cancels what is still on its way.
  useEffect(() => {
    const running = uploads.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  return {
    items,
    tooMany,
    add,
    remove,
    clear,
    uploading: items.some((item) => item.state === 'uploading'),
    failed: items.some((item) => item.state === 'failed'),
    fileIds: items.flatMap((item) => (item.fileId === undefined ? [] : [item.fileId])),
    max,
  };
}

export type Attachments = ReturnType<typeof useAttachments>;
