import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentUrlOpener, OPEN_IN_BROWSER_PROMPT } from './opener.ts';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('agentUrlOpener', () => {
  it('with AGENT_URL_OPENER_FILE: appends each address as a line, and says nothing on stderr', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'autoasesor-opener-'));
    folders.push(folder);
    const file = join(folder, 'urls.txt');
    const said: string[] = [];
    const open = agentUrlOpener({ AGENT_URL_OPENER_FILE: file }, (line) => said.push(line));
    await open('https://accounts.example/auth?state=a');
    await open('https://accounts.example/auth?state=b');
    expect(await readFile(file, 'utf8')).toBe('https://accounts.example/auth?state=a\nhttps://accounts.example/auth?state=b\n');
    expect(said).toEqual([]);
  });

  it('without it: asks on stderr to open the address', async () => {
    const said: string[] = [];
    await agentUrlOpener({}, (line) => said.push(line))('https://accounts.example/auth?state=a');
    expect(said).toEqual([`${OPEN_IN_BROWSER_PROMPT} https://accounts.example/auth?state=a`]);
    expect(OPEN_IN_BROWSER_PROMPT).toBe('Abre esta dirección en el navegador para conectar la cuenta:');
  });

  it('a file it cannot write: a Spanish error naming the variable', async () => {
    const open = agentUrlOpener({ AGENT_URL_OPENER_FILE: join(tmpdir(), 'no-existe-esta-carpeta-autoasesor', 'urls.txt') });
    await expect(open('https://accounts.example/auth')).rejects.toThrow(/AGENT_URL_OPENER_FILE/);
  });
});
