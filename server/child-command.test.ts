import { describe, expect, it } from 'vitest';
import { robotHeapFlags } from './child-command.ts';
import { runProcessCommand } from './modules/runs/run-child.ts';

describe('the flags a child process starts with', () => {
  it("gives a robot's process its heap limit and small semi-spaces (streaming robots make short-lived objects)", () => {
    expect(robotHeapFlags(1024)).toEqual(['--max-old-space-size=1024', '--max-semi-space-size=4']);
    expect(runProcessCommand(768, 'file:///app/dist/server/index.js')).toEqual({ entry: '/app/dist/server/run-process.js', execArgv: ['--max-old-space-size=768', '--max-semi-space-size=4'] });
    expect(runProcessCommand(768, 'file:///app/server/modules/runs/run-child.ts', '/tmp/children').execArgv).toEqual(['--max-old-space-size=768', '--max-semi-space-size=4']);
  });
});
