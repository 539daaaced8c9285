import { describe, expect, it } from 'vitest';
import { CALLBACK_PATH, listenOnLoopback } from './loopback.ts';
import { failedPage, resultPage } from './page.ts';

describe('listenOnLoopback', () => {
  it('listens on 127.0.0.1 with an ephemeral port and hands only GETs of the callback path to its handler', async () => {
    const seen: string[] = [];
    const listener = await listenOnLoopback((params) => {
      seen.push(params.toString());
      return { status: 200, page: resultPage('AutoAsesor', 'vale') };
    });
    try {
      const redirect = new URL(listener.redirectUri);
      expect(redirect.hostname).toBe('127.0.0.1');
      expect(redirect.pathname).toBe(CALLBACK_PATH);
      expect(Number(redirect.port)).toBeGreaterThan(0);

      const ok = await fetch(`${listener.redirectUri}?code=c&state=s`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(ok.headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(ok.headers.get('cache-control')).toBe('no-store');
      expect(await ok.text()).toContain('vale');

      expect((await fetch(`http://127.0.0.1:${redirect.port}/otra?code=c&state=s`)).status).toBe(400);
      expect((await fetch(listener.redirectUri, { method: 'POST', body: 'code=c' })).status).toBe(400);
      expect(seen).toEqual(['code=c&state=s']);
    } finally {
      await listener.close();
    }
    await expect(fetch(listener.redirectUri)).rejects.toThrow();
  });

  it('a handler that throws answers 400 and the listener goes on', async () => {
    let calls = 0;
    const listener = await listenOnLoopback(() => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      return { status: 200, page: 'ok' };
    });
    try {
      expect((await fetch(listener.redirectUri)).status).toBe(400);
      expect((await fetch(listener.redirectUri)).status).toBe(200);
    } finally {
      await listener.close();
    }
  });
});

describe('pages', () => {
  it('escape what the provider wrote', () => {
    expect(failedPage('<script>alert(1)</script> & "x"')).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;x&#34;');
    expect(failedPage('<b>')).not.toContain('<b>');
  });
});
