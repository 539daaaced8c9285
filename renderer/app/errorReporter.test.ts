import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppLogRequest } from '#shared/api/applogs.ts';
import { installErrorReporter } from './errorReporter.ts';

let uninstall: () => void = () => undefined;
afterEach(() => uninstall());

function setup(maxPerWindow = 3) {
  let time = 0;
  const sent: AppLogRequest[] = [];
  uninstall = installErrorReporter(window, { send: (log) => sent.push(log), maxPerWindow, windowMs: 1000, now: () => time });
  return { sent, advance: (ms: number) => (time += ms) };
}

const fail = (message: string) => window.dispatchEvent(new ErrorEvent('error', { message, error: new Error(message) }));

describe('installErrorReporter', () => {
  it('reports uncaught errors with their stack and the page', () => {
    const { sent } = setup();
    fail('boom');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ level: 'error', message: 'Error: boom', url: window.location.href });
    expect(sent[0]?.stack).toContain('boom');
  });

  it('reports unhandled rejections', () => {
    const { sent } = setup();
    const event = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(event, 'reason', { value: 'sin red' });
    window.dispatchEvent(event);
    expect(sent[0]?.message).toBe('Unhandled rejection: sin red');
  });

  it('throttles a flood and skips repeats, then reports again in the next window', () => {
    const { sent, advance } = setup(3);
    fail('a');
    fail('a');
    fail('b');
    fail('c');
    fail('d');
    expect(sent.map((log) => log.message)).toEqual(['Error: a', 'Error: b', 'Error: c']);
    advance(1000);
    fail('a');
    expect(sent).toHaveLength(4);
  });

  it('stops listening once uninstalled', () => {
    const { sent } = setup();
    uninstall();
    const spy = vi.fn();
    window.addEventListener('error', spy);
    fail('after');
    window.removeEventListener('error', spy);
    expect(sent).toHaveLength(0);
  });
});
