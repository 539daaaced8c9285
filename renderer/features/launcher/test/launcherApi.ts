import type { ExecutionStateResponse, Output } from '#shared/api/flows.ts';
import { jsonResponse } from '../../../test/renderApp.tsx';

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = (call: Call) => Response | Promise<Response>;

/**
 * A fetch mock for the launcher's calls, answering by "METHOD path" with the query string apart, so
 * long polls (?wait=20&since=n) find their handler. Unknown routes get a 404 in the API error shape.
 */
export function launcherApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  };
  const posts = (path: string) => calls.filter((call) => call.method === 'POST' && call.path === path);
  return { fetchMock, calls, posts };
}

export const subscription = { active: true, trialing: false, name: 'Plan Pro', balance: 1250 };

export function runState(overrides: Partial<ExecutionStateResponse> = {}): ExecutionStateResponse {
  return {
    executionToken: 'token-1', runId: 'run-1', state: 'running', successfulIterations: 0, totalIterations: 0, consoleLog: [], ...overrides,
  };
}

export function output(status: number, overrides: Partial<Output['data']> = {}, consoleLog: string[] = []): Output {
  return {
    status,
    executionToken: 'token-1',
    consoleLog,
    data: { runId: 'run-1', files: [], usageUnits: 1, usageRatio: 2, cost: 2, ...overrides },
  };
}

/** A queue of answers for the long poll: each GET state takes the next one (the last one repeats). */
export function pollAnswers(...answers: (() => Response)[]): Handler {
  let index = 0;
  return () => {
    const answer = answers[Math.min(index, answers.length - 1)]!;
    index += 1;
    return answer();
  };
}
