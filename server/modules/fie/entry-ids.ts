import { randomBytes } from 'node:crypto';

/*
 * Ids of stored FIE entries in time order (UUID version 7, RFC 9562): the milliseconds first, then a
 * counter within the millisecond, then random bits. An import adds its entries in that order, so the
 * indexes that hold their ids (fie_entries' key, the links' key and their entry_id index) grow at their
 * end: random (version 4) ids made each batch of 100 rows touch pages all over those indexes, and
 * writing them was most of an upload's time (100,000 entries: 3× slower in the same transactions).
 */

let lastMs = 0;
let counter = 0;
let pool = Buffer.alloc(0);
let poolAt = 0;

/** 8 random bytes, taken from a pool refilled 4 KiB at a time (one call to the system's generator). */
function randomEight(): Buffer {
  if (poolAt + 8 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  poolAt += 8;
  return pool.subarray(poolAt - 8, poolAt);
}

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');

/** A new id, greater than every id this process made before (as text, too: the hex digits are lower case and fixed width). */
export function timeOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else {
    // The same millisecond (or a clock step back): the counter keeps the order; past its 12 bits, the next millisecond.
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
  }
  const random = randomEight();
  const time = hex(lastMs, 12);
  const variant = 0x8000 | (((random[0] as number) & 0x3f) << 8) | (random[1] as number);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hex(counter, 3)}-${hex(variant, 4)}-${random.subarray(2, 8).toString('hex')}`;
}
