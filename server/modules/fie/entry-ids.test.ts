import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './entry-ids.ts';

describe('time-ordered entry ids', () => {
  it('are version 7 UUIDs, each greater than the one before, within a millisecond and across them', () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => timeOrderedId(1_760_000_000_000 + Math.floor(index / 3_000)));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (let index = 1; index < ids.length; index += 1) expect((ids[index] as string) > (ids[index - 1] as string)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keep their order when the clock steps back', () => {
    const first = timeOrderedId(1_900_000_000_000);
    const second = timeOrderedId(1_800_000_000_000);
    expect(second > first).toBe(true);
    expect(second.slice(0, 13)).toBe(first.slice(0, 13));
  });
});
