import { createReadStream } from 'node:fs';
import { FieTextStream } from '#shared/fie/index.ts';
import { writeSampleFie } from '/work/main/scripts/bench/fie-sample.ts';
const path = '/tmp/prof/fie-100k.txt';
import { existsSync } from 'node:fs';
if (!existsSync(path)) await writeSampleFie(path, 100_000);
for (let run = 0; run < 6; run++) {
  const t = performance.now();
  let n = 0;
  const d = new FieTextStream({ entry: () => void (n += 1) });
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) d.write(chunk.toString('latin1'));
  d.end();
  console.log(n, (performance.now() - t).toFixed(0), 'ms');
}
