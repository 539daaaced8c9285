import { describe, expect, it } from 'vitest';
import { DOUBLE_CLICK_WINDOW_MS, createOutsideClickJudge } from './outsideClicks.ts';

describe('createOutsideClickJudge', () => {
  it('hints on a single click and closes on a second one within the window', () => {
    const judge = createOutsideClickJudge();
    expect(judge(10_000)).toBe('hint');
    expect(judge(10_000 + DOUBLE_CLICK_WINDOW_MS)).toBe('close');
  });

  it('hints again when the second click comes after the window', () => {
    const judge = createOutsideClickJudge();
    expect(judge(10_000)).toBe('hint');
    expect(judge(10_000 + DOUBLE_CLICK_WINDOW_MS + 1)).toBe('hint');
    // ...and that late click opens a new pair.
    expect(judge(10_000 + DOUBLE_CLICK_WINDOW_MS + 300)).toBe('close');
  });

  it('starts afresh after closing: a third quick click is a new first click', () => {
    const judge = createOutsideClickJudge();
    judge(0);
    expect(judge(200)).toBe('close');
    expect(judge(400)).toBe('hint');
  });
});
