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
