import { describe, expect, it } from 'vitest';
import { FIE_UPLOAD_MAX_FILES, fiePaths } from '#shared/api/fie.ts';
import { fieServerClient, type FieFileToUpload } from './server-client.ts';

/** A server that answers every upload with each file processed, and records what was asked. */
function recordingFetch() {
  const calls: { url: string; names: string[] }[] = [];
  const fetchStub = (async (input: string | URL | Request, init?: RequestInit) => {
    const form = init?.body as FormData;
    const names = form.getAll('files').map((file) => (file as File).name);
    calls.push({ url: String(input), names });
    const results = names.map((fileName) => ({ fileName, status: 'processed', documentId: `doc-${fileName}`, entries: 1, linkedEntries: 0, reason: null }));
    return new Response(JSON.stringify({ results, processed: names.length, failed: 0, alreadyAdded: 0 }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { calls, fetchStub };
}

const file = (name: string, source?: FieFileToUpload['source']): FieFileToUpload => ({ name, bytes: new TextEncoder().encode(name), ...(source ? { source } : {}) });

describe('fieServerClient upload', () => {
  it('says where each fetched file came from: ?source=siltra for the SILTRA folder, ?source=fier for FIER, none for a picked file', async () => {
    const { calls, fetchStub } = recordingFetch();
    const client = fieServerClient({ serverUrl: 'http://127.0.0.1:1', deviceToken: 'tok', fetch: fetchStub });
    const answer = await client.upload([file('carpeta-1.txt', 'folder'), file('fier-1.txt', 'fier'), file('carpeta-2.txt', 'folder'), file('elegido.txt')]);
    expect(calls.map(({ url, names }) => [new URL(url).pathname + new URL(url).search, names])).toEqual([
      [`${fiePaths.upload}?source=siltra`, ['carpeta-1.txt', 'carpeta-2.txt']],
      [`${fiePaths.upload}?source=fier`, ['fier-1.txt']],
      [fiePaths.upload, ['elegido.txt']],
    ]);
    expect(answer).toMatchObject({ processed: 4, failed: 0, alreadyAdded: 0 });
    expect(answer.results.map((result) => result.fileName).sort()).toEqual(['carpeta-1.txt', 'carpeta-2.txt', 'elegido.txt', 'fier-1.txt']);
  });

  it('still sends at most FIE_UPLOAD_MAX_FILES files a request, each batch with its source', async () => {
    const { calls, fetchStub } = recordingFetch();
    const client = fieServerClient({ serverUrl: 'http://127.0.0.1:1', deviceToken: 'tok', fetch: fetchStub });
    const many = Array.from({ length: FIE_UPLOAD_MAX_FILES + 1 }, (_, index) => file(`f${index}.txt`, 'fier'));
    expect((await client.upload(many)).processed).toBe(many.length);
    expect(calls.map(({ url, names }) => [new URL(url).search, names.length])).toEqual([['?source=fier', FIE_UPLOAD_MAX_FILES], ['?source=fier', 1]]);
  });
});
