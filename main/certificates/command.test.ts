import { describe, expect, it } from 'vitest';
import { CommandError, createCommandRunner, runCommand } from './command.ts';

const node = process.execPath;

describe('runCommand', () => {
  it('returns what the program printed, in UTF-8, with its exit code', async () => {
    const output = await runCommand(node, ['-e', 'process.stdout.write("MUÑOZ PEÑA"); process.stderr.write("aviso")']);
    expect(output).toEqual({ exitCode: 0, stdout: 'MUÑOZ PEÑA', stderr: 'aviso' });
  });

  it('resolves with a non-zero exit code instead of rejecting', async () => {
    const output = await runCommand(node, ['-e', 'process.stderr.write("fallo"); process.exit(3)']);
    expect(output).toMatchObject({ exitCode: 3, stderr: 'fallo' });
  });

  it('passes arguments as they are, with no shell in between', async () => {
    const output = await runCommand(node, ['-e', 'process.stdout.write(process.argv[1])', '$(echo no) "; exit 1']);
    expect(output.stdout).toBe('$(echo no) "; exit 1');
  });

  it('rejects with a Spanish CommandError when the program does not exist', async () => {
    const failure = runCommand('programa-que-no-existe-autoasesor', []);
    await expect(failure).rejects.toBeInstanceOf(CommandError);
    await expect(failure).rejects.toMatchObject({ failure: 'not-found', message: 'No se encontró el programa programa-que-no-existe-autoasesor' });
  });

  it('stops a program that takes too long or prints too much', async () => {
    const impatient = createCommandRunner({ timeoutMs: 500, maxOutputBytes: 1024 * 1024 });
    await expect(impatient(node, ['-e', 'setTimeout(() => {}, 20000)'])).rejects.toMatchObject({ failure: 'timeout', message: expect.stringMatching(/no respondió en 1 s$/) });
    const terse = createCommandRunner({ timeoutMs: 20_000, maxOutputBytes: 1024 });
    await expect(terse(node, ['-e', 'process.stdout.write("x".repeat(5000))'])).rejects.toMatchObject({ failure: 'too-much-output' });
  });
});
