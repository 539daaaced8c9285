/**
 * Vitest global setup of the Node projects: builds the server's child processes (a run's, an
 * inspection's, the demo's, a FIE upload's decoding) and the test flows once, into the folder
 * vitest.config.ts names in AUTOASESOR_CHILD_BUNDLES. The servers the tests start fork those bundles, as a compiled server does,
 * instead of compiling each child's sources through tsx at every start (~0.4 s of CPU, ~250 times a
 * run). The folder goes when the run ends.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildChildBundles } from './build-server.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = process.env.AUTOASESOR_CHILD_BUNDLES;
  if (!dir) throw new Error('AUTOASESOR_CHILD_BUNDLES is not set: vitest.config.ts names the folder.');
  // Both Node projects run this setup: the first build to finish is kept.
  if (!existsSync(join(dir, 'run-process.js'))) {
    const building = `${dir}-${randomBytes(4).toString('hex')}`;
    await mkdir(building, { recursive: true });
    await buildChildBundles(building);
    await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
  }
  return () => rm(dir, { recursive: true, force: true });
}
