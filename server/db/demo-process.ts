/**
 * The child process that makes the demo account's files (forked once by demo-files.ts, after the first
 * start): for each seeded run it generates the run's input, runs the flow's robot on it and posts back
 * the input, the robot's log, progress and result. One process for all the demo's runs, since forking
 * one per run (as launches do, for isolation) cost more than the robots' own work; the robots and
 * their inputs are ours, so there is nothing to isolate them from. Bundled as dist/server/demo-process.js.
 */
import { parentChannel } from '../child-channel.ts';
import type { RobotLogLevel } from '#shared/flows/robot.ts';
import { builtInFlows } from '../../resources/flows/index.ts';
import { demoInput, type DemoJob, type DemoJobDone } from './demo-input.ts';

const post = parentChannel<DemoJobDone>('demo-process');


async function runJob(job: DemoJob): Promise<DemoJobDone> {
  const flow = builtInFlows.find((candidate) => (candidate.definition as { id?: unknown }).id === job.flowId);
  if (!flow?.loadRobot) return { runId: job.runId, failure: `El robot ${job.flowId} no está en este servidor` };
  const robot = await flow.loadRobot();
  const startedAt = new Date(job.startedAt);
  const input = demoInput({ ...job, startedAt });
  const lines: { level: RobotLogLevel; text: string }[] = [];
  let progress = { successful: 0, total: job.items };
  const result = await robot.run({
    inputs: {},
    files: { [input.key]: [{ name: input.name, data: input.data }] },
    log: (level, text) => lines.push({ level, text }),
    progress: (successful, total) => (progress = { successful, total }),
    signal: { aborted: false, addEventListener: () => undefined },
    startedAt,
  });
  return { runId: job.runId, input, lines, progress, result };
}

process.once('message', (jobs: DemoJob[]) => {
  void (async () => {
    for (const job of jobs) {
      try {
        await post(await runJob(job));
      } catch (error) {
        await post({ runId: job.runId, failure: error instanceof Error ? error.message : String(error) });
      }
    }
    process.exit(0);
  })();
});
