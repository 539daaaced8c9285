import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp.ts';

/** The directives of a policy by name. */
const directives = (policy: string) => new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name = '', ...sources]) => [name, sources]));

describe('the desktop window’s Content-Security-Policy', () => {
  it('lets a picked image be previewed from a blob: URL (the form’s logo, issue 44), for images only', () => {
    const policy = directives(contentSecurityPolicy('http://localhost:8081'));
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    for (const [name, sources] of policy) if (name !== 'img-src') expect(sources, name).not.toContain('blob:');
    expect(policy.get('script-src')).toEqual(["'self'"]);
  });
});
