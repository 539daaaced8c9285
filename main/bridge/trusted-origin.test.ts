import { describe, expect, it } from 'vitest';
import { isTrustedRendererUrl } from './trusted-origin.ts';

describe('isTrustedRendererUrl', () => {
  const server = 'http://localhost:8081';
  it.each([
    ['http://localhost:8081/home', true],
    ['http://localhost:8081/', true],
    ['http://localhost:8082/home', false],
    ['https://localhost:8081/home', false],
    ['http://localhost.evil.example:8081/', false],
    ['file:///C:/malware.html', false],
    ['not a url', false],
    [undefined, false],
  ])('%s -> %s', (url, trusted) => {
    expect(isTrustedRendererUrl(url, server)).toBe(trusted);
  });
});
