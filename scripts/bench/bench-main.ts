import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/**
 * The entry of a bench module run on its own (`npx tsx scripts/bench/<name>.ts`): prints the bench's
 * lines; started again with `--child <args>` (the bench measures each case in a process of its own, so
 * that its peak RSS is its own), runs that case and prints its result as one JSON line. Does nothing
 * when the module is imported (scripts/bench.ts).
 */
export async function benchMain(moduleUrl: string, bench: () => Promise<string[]>, child: (args: string[]) => Promise<unknown>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const index = process.argv.indexOf('--child');
  if (index === -1) {
    for (const line of await bench()) console.log(line);
  } else {
    console.log(JSON.stringify(await child(process.argv.slice(index + 1))));
  }
}

/**
 * The entry of a bench module that measures the compiled server, run on its own
 * (`npx tsx scripts/bench/<name>.ts`): builds the server's bundle, prints the bench's lines, removes the
 * bundle. Does nothing when the module is imported (scripts/bench.ts passes its own build).
 */
export async function compiledServerBenchMain(moduleUrl: string, bench: (entry: string) => Promise<string[]>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const { buildServerCopy } = await import('../build-server.ts');
  const build = await buildServerCopy();
  try {
    for (const line of await bench(build.entry)) console.log(line);
  } finally {
    await rm(build.dir, { recursive: true, force: true });
  }
}
