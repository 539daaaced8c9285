import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageCsp } from './web-app.ts';

/** The renderer's own index.html: its meta CSP is the policy browsers get as a header too (web-app.ts). */
const INDEX = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');
const directives = (policy: string) => new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name = '', ...sources]) => [name, sources]));

describe("the web app's Content-Security-Policy", () => {
  it('lets a picked image be previewed from a blob: URL (the form’s logo, issue 44), for images only', () => {
    const policy = pageCsp(INDEX);
    expect(policy).not.toBeNull();
    const byName = directives(policy ?? '');
    expect(byName.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    for (const [name, sources] of byName) if (name !== 'img-src') expect(sources, name).not.toContain('blob:');
    expect(byName.get('script-src')).toEqual(["'self'"]);
  });
});
