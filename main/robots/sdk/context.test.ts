import { describe, expect, it } from 'vitest';
import type { RobotBrowsers } from './browser.ts';
import { createDesktopRobotContext, mergedSettings } from './context.ts';

describe('the desktop robot context', () => {
  it("overrides replace the flow's settings key by key, and the result cannot be changed by the robot", () => {
    const settings = mergedSettings({ baseUrl: 'https://dehu.redsara.es', selectors: { a: '#a' }, pageTimeoutSeconds: 30 }, { baseUrl: 'https://127.0.0.1:8443', ignoreHTTPSErrors: true });
    expect(settings).toEqual({ baseUrl: 'https://127.0.0.1:8443', selectors: { a: '#a' }, pageTimeoutSeconds: 30, ignoreHTTPSErrors: true });
    expect(Object.isFrozen(settings)).toBe(true);
  });

  it('log text and progress figures reach the reporter as the run log stores them', () => {
    const reported: unknown[] = [];
    const context = createDesktopRobotContext(
      { inputs: { nif: '12345678Z' }, files: {}, settings: {}, startedAt: new Date('2026-11-23T08:00:00Z'), signal: new AbortController().signal, browsers: {} as RobotBrowsers },
      { log: (level, text) => reported.push([level, text]), progress: (successful, total) => reported.push([successful, total]) },
    );
    context.log('info', 42 as unknown as string);
    context.log('debug' as 'info', 'raro');
    context.progress(2.7, Number.NaN);
    context.progress(-1, 5);
    expect(reported).toEqual([['info', '42'], ['info', 'raro'], [2, 0], [0, 5]]);
    expect(context.files).toEqual({});
    expect(context.inputs).toEqual({ nif: '12345678Z' });
  });

  it('gives the robot the files of each FileUpload input, by key', () => {
    const justificante = { name: 'justificante.pdf', data: new TextEncoder().encode('%PDF-1.4') };
    const context = createDesktopRobotContext(
      { inputs: {}, files: { documentos: [justificante] }, settings: {}, startedAt: new Date(), signal: new AbortController().signal, browsers: {} as RobotBrowsers },
      { log: () => undefined, progress: () => undefined },
    );
    expect(context.files).toEqual({ documentos: [justificante] });
  });
});
