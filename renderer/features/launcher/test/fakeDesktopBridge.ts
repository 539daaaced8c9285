import { act } from '@testing-library/react';
import type { BridgeCommand, BridgeEventPayload } from '#shared/bridge/contract.ts';
import type { BridgeClient } from '../../../bridge/client.ts';

export type BridgeAnswer = (args: never) => unknown;

/**
 * A desktop bridge for the launcher's desktop tests: each command answers with the envelope its
 * `answers` entry returns (a command without one is UNKNOWN_COMMAND, as the registry says), every call
 * is recorded, and RobotRun events can be pushed with emit().
 */
export function fakeDesktopBridge(answers: Partial<Record<BridgeCommand, BridgeAnswer>>) {
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  const listeners = new Set<(payload: BridgeEventPayload<'RobotRun'>) => void>();
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: async (command: BridgeCommand, args: unknown) => {
      calls.push({ command, args });
      const answer = answers[command] as ((args: unknown) => unknown) | undefined;
      return answer ? answer(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    },
    on: (event: string, callback: (payload: BridgeEventPayload<'RobotRun'>) => void) => {
      if (event !== 'RobotRun') return () => undefined;
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
  } as unknown as BridgeClient;
  const emit = (payload: BridgeEventPayload<'RobotRun'>) => act(() => listeners.forEach((listener) => listener(payload)));
  const commands = () => calls.map((call) => call.command);
  const argsOf = (command: BridgeCommand) => calls.filter((call) => call.command === command).map((call) => call.args);
  return { bridge, calls, commands, argsOf, emit, listeners };
}
