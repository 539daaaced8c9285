import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowsPaths } from '#shared/api/flows.ts';
import { registerUser, type CookieJar, type TestServer, startTestServer } from '../test/harness.ts';
import { CLIENT_ABORTED_MESSAGE, MALFORMED_MULTIPART_MESSAGE, multipartError } from './errors.ts';
import { ABORTED_REQUEST_MESSAGE } from './request-log.ts';

/**
 * Issue 39 point 8: a malformed multipart body and a client that hangs up are the client's doing: a 400
 * with a Spanish message and one short log line, never a 500 with a stack ('Error no controlado').
 */

let server: TestServer;
let jar: CookieJar;
beforeAll(async () => {
  server = await startTestServer();
  jar = await registerUser(server.app, 'multipart@asesoria.es');
});
afterAll(async () => server.close());

const part = (boundary: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nNIF\r\n12345678Z\r\n`;

const MALFORMED: Array<[string, string, string]> = [
  ['no boundary', 'multipart/form-data', part('x')],
  ['a part never closed', 'multipart/form-data; boundary=x', part('x')],
  ['a body cut in a file', 'multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nNIF\r\n1234`],
  ['a part of headers only', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n'],
  ['a boundary too long to search', `multipart/form-data; boundary=${'b'.repeat(300)}`, part('b'.repeat(300))],
];

describe('malformed multipart', () => {
  it.each(MALFORMED)('%s: 400 with a Spanish message, one short log line, nothing stored', async (_name, contentType, payload) => {
    const before = server.logLines().length;
    const response = await jar.request({ method: 'POST', url: flowsPaths.uploads, headers: { 'content-type': contentType }, payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'MALFORMED_MULTIPART', message: MALFORMED_MULTIPART_MESSAGE });
    const lines = server.logLines().slice(before);
    expect(lines).toEqual([expect.objectContaining({ msg: 'petición fallida', status: 400, path: flowsPaths.uploads })]);
    expect(server.countRows('stored_files')).toBe(0);
  });

  it('maps busboy’s messages and @fastify/multipart’s codes, and nothing else', () => {
    expect(multipartError(new Error('Multipart: Boundary not found'))?.statusCode).toBe(400);
    expect(multipartError(new Error('Part terminated early due to unexpected end of multipart data'))?.code).toBe('MALFORMED_MULTIPART');
    expect(multipartError(Object.assign(new Error('the request was closed before the multipart data was fully parsed'), { code: 'FST_MP_PREMATURE_CLOSE' }))?.toBody()).toMatchObject({ statusCode: 400, code: 'CLIENT_ABORTED', message: CLIENT_ABORTED_MESSAGE });
    expect(multipartError(new Error('ENOSPC: no space left on device'))).toBeNull();
    expect(multipartError(new Error('Unexpected end of JSON input'))).toBeNull();
  });
});

describe('a client that hangs up mid-upload', () => {
  it('is logged as one short line, not as an unhandled error', async () => {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const before = server.logLines().length;
    const cookie = [...jar.cookies].map(([name, value]) => `${name}=${value.value}`).join('; ');
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(`POST ${flowsPaths.uploads} HTTP/1.1\r\nhost: 127.0.0.1\r\ncookie: ${cookie}\r\ncontent-type: multipart/form-data; boundary=x\r\ncontent-length: 1000000\r\n\r\n`);
    socket.write(`--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nNIF\r\n${'12345678Z\r\n'.repeat(1000)}`);
    await new Promise((resume) => setTimeout(resume, 300));
    socket.destroy();
    let lines: Array<Record<string, unknown>> = [];
    for (let waited = 0; waited < 5_000; waited += 50) {
      lines = server.logLines().slice(before);
      if (lines.some((line) => line.msg === ABORTED_REQUEST_MESSAGE)) break;
      await new Promise((resume) => setTimeout(resume, 50));
    }
    // Let the handler finish what it was doing, then read the log again.
    await new Promise((resume) => setTimeout(resume, 300));
    lines = server.logLines().slice(before);
    expect(lines.map((line) => line.msg)).toEqual([ABORTED_REQUEST_MESSAGE]);
    expect(lines[0]).toMatchObject({ level: 30, method: 'POST', path: flowsPaths.uploads });
    expect(JSON.stringify(lines[0]).length).toBeLessThan(300);
    expect(server.countRows('stored_files')).toBe(0);
  });
});
