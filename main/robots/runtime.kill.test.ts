/** The agent killed with SIGKILL (a stand-in process, testing/agent-stand-in.ts): its robot processes and their browsers do not outlive it. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumFound, descendantsOf, isAlive, isZombie, pidIn } from './testing/runtime-harness.ts';

describe('when the agent dies (kill -9)', () => {
  /** The agent stand-in as its own process, with its event lines. */
  function startAgent(flowId: string, spare?: 'spare' | 'spare-browser') {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const agent = spawn(process.execPath, ['--import', tsx, new URL('./testing/agent-stand-in.ts', import.meta.url).pathname, flowId, ...(spare ? [spare] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    agent.stdout.on('data', (chunk: Buffer) => (buffered += chunk.toString('utf8')));
    const waitFor = <T>(read: (output: string) => T | null) =>
      new Promise<T>((resolve, reject) => {
        const check = () => {
          const value = read(buffered);
          if (value === null) return false;
          agent.stdout.off('data', check);
          resolve(value);
          return true;
        };
        if (check()) return;
        agent.stdout.on('data', check);
        agent.once('exit', () => reject(new Error(`the agent stand-in ended early: ${buffered}`)));
      });
    const robotPid = waitFor((output) => pidIn(output) || null);
    /** The spare started after the run's first line, once prepared. */
    const sparePid = () => waitFor((output) => Number(/"event":"spare","pid":(\d+)/.exec(output)?.[1]) || null);
    return { agent, robotPid, sparePid };
  }

  const gone = async (pids: number[], withinMs: number) => {
    const deadline = Date.now() + withinMs;
    while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return pids.filter(isAlive);
  };

  it('its robot process notices the closed channel and exits', async () => {
    const { agent, robotPid } = startAgent('ignora-parada');
    const pid = await robotPid;
    expect(isAlive(pid)).toBe(true);
    agent.kill('SIGKILL');
    expect(await gone([pid], 10_000)).toEqual([]);
  }, 60_000);

  it('a spare waiting for its run dies with it, and so does the browser it launched ahead', async () => {
    const { agent, robotPid, sparePid } = startAgent('ignora-parada', chromiumFound ? 'spare-browser' : 'spare');
    try {
      const pids = [await robotPid, await sparePid()];
      const browser = chromiumFound ? descendantsOf(pids[1] as number) : [];
      if (chromiumFound) expect(browser.length).toBeGreaterThan(0);
      agent.kill('SIGKILL');
      expect(await gone([...pids, ...browser].filter((pid) => !isZombie(pid)), 15_000)).toEqual([]);
    } finally {
      agent.kill('SIGKILL');
    }
  }, 90_000);
});
