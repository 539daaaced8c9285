import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './test/harness.ts';
import { openRotatingLog } from './log-file.ts';

let dir = '';
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('openRotatingLog', () => {
  it('rotates by size and keeps only the newest files', async () => {
    dir = await mkdtemp(join(tmpdir(), 'autoasesor-log-'));
    const log = await openRotatingLog(join(dir, 'logs', 'server.log'), { maxSize: '2k', keep: 2 });
    // 40 KB of server log lines: the server's own 404 summaries, written as they happen.
    const server = await startTestServer({ logStream: log.stream });
    for (let i = 0; i < 200; i++) {
      await server.app.inject({ method: 'GET', url: `/api/no-existe/${'x'.repeat(100)}` });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await server.close();
    await log.close();

    const files = (await readdir(join(dir, 'logs'))).filter((name) => /^server\.\d+\.log$/.test(name));
    expect(files).toHaveLength(3);
    const sizes = await Promise.all(files.map(async (name) => (await stat(join(dir, 'logs', name))).size));
    expect(sizes.every((size) => size < 4 * 1024)).toBe(true);
    const newest = files.sort((a, b) => Number(b.split('.')[1]) - Number(a.split('.')[1]))[0] ?? '';
    expect(Number(newest.split('.')[1])).toBeGreaterThan(3);
    const kept = await Promise.all(files.map(async (name) => readFile(join(dir, 'logs', name), 'utf8')));
    expect(kept.join('')).toContain('petición fallida');
  });
});
