import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { devicesPaths, type DeviceLink, type LeasedRun } from '#shared/api/devices.ts';
import { pathFor } from '#shared/api/flows.ts';
import type { CookieJar, TestServer } from '../../test/harness.ts';
import { machineHash } from '../machines/test-support.ts';

/** Links a PC (by a made-up name) for the signed-in user and expects it to work. */
export async function linkPc(jar: CookieJar, pc: string, machineName = `PC ${pc}`): Promise<DeviceLink> {
  const response = await jar.post(devicesPaths.link, { machineHashCode: machineHash(pc), machineName });
  expect([200, 201], response.body).toContain(response.statusCode);
  return response.json() as DeviceLink;
}

/** A desktop app or agent: calls the device API with its token, and no cookies. */
export class DeviceClient {
  constructor(
    private readonly server: Pick<TestServer, 'app'>,
    readonly token: string,
  ) {}

  private headers() {
    return { authorization: `Device ${this.token}` };
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.server.app.inject({ method: 'GET', url, headers: this.headers() });
  }

  post(url: string, payload: unknown): Promise<LightMyRequestResponse> {
    return this.server.app.inject({ method: 'POST', url, headers: this.headers(), payload: payload as Record<string, unknown> });
  }

  next(wait = 0) {
    return this.get(`${devicesPaths.nextRun}?wait=${wait}`);
  }

  /** Leases the next queued run and expects one. */
  async leaseNext(wait = 5): Promise<LeasedRun> {
    const response = await this.next(wait);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { run: LeasedRun }).run;
  }

  claim(executionToken: string) {
    return this.post(devicesPaths.claimRun, { executionToken });
  }

  report(runId: string, body: { lines?: { level: 'info' | 'warn' | 'error'; text: string }[]; successfulIterations?: number; totalIterations?: number }) {
    return this.post(pathFor(devicesPaths.report, { runId }), { lines: body.lines ?? [], successfulIterations: body.successfulIterations ?? 0, totalIterations: body.totalIterations ?? 0 });
  }

  finish(runId: string, outcome: Record<string, unknown>) {
    return this.post(pathFor(devicesPaths.finish, { runId }), outcome);
  }
}

/** A robot's successful result as the desktop sends it, with these files in its folder (and sent base64). */
export function successWith(files: Record<string, string>, usageUnits = 1, send = true): Record<string, unknown> {
  return {
    kind: 'result',
    result: 'Success',
    usageUnits,
    outputFolder: 'C:\\Users\\ana\\AutoAsesor\\robot-de-escritorio\\2025-03-20 10.00.00 abcd1234',
    outputFileNames: Object.keys(files),
    outputs: send ? Object.entries(files).map(([name, text]) => ({ name, base64: Buffer.from(text).toString('base64') })) : [],
  };
}
