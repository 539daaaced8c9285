import { describe, expect, it } from 'vitest';
import { domainOf, parseAuthenticationResults, senderDomainVerified } from './sender-verification.ts';

const GOOGLE = 'mx.google.com; dkim=pass header.i=@example.com header.s=s1 header.b=abc; spf=pass (google.com: domain of ana@example.com designates 192.0.2.1 as permitted sender) smtp.mailfrom=ana@example.com; dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.com';

describe('parseAuthenticationResults', () => {
  it('reads every method=result clause with its properties, without comments', () => {
    expect(parseAuthenticationResults(GOOGLE)).toEqual([
      { authservId: 'mx.google.com', method: 'dkim', result: 'pass', props: { 'header.i': '@example.com', 'header.s': 's1', 'header.b': 'abc' } },
      { authservId: 'mx.google.com', method: 'spf', result: 'pass', props: { 'smtp.mailfrom': 'ana@example.com' } },
      { authservId: 'mx.google.com', method: 'dmarc', result: 'pass', props: { 'header.from': 'example.com' } },
    ]);
  });

  it('takes versions, folding, case, spaces around "=", nested comments and "none"', () => {
    expect(parseAuthenticationResults('MX.Example.ORG 1;\r\n\tDKIM/1 = Pass (good (really)) Header.D=Example.com')).toEqual([
      { authservId: 'mx.example.org', method: 'dkim', result: 'pass', props: { 'header.d': 'Example.com' } },
    ]);
    expect(parseAuthenticationResults('mx.example.org; none')).toEqual([]);
  });

  it('does not let a comment or a quoted string smuggle in a clause', () => {
    const commented = parseAuthenticationResults('mx.example.org; dkim=fail (; dkim=pass header.d=example.com) header.d=example.com');
    expect(commented.map((entry) => [entry.method, entry.result])).toEqual([['dkim', 'fail']]);
    const quoted = parseAuthenticationResults('mx.example.org; spf=fail smtp.mailfrom="x; dkim=pass header.d=example.com"@evil.es');
    expect(quoted).toEqual([{ authservId: 'mx.example.org', method: 'spf', result: 'fail', props: { 'smtp.mailfrom': 'x; dkim=pass header.d=example.com@evil.es' } }]);
  });
});

describe('senderDomainVerified', () => {
  it('passes on DKIM (header.d or header.i), SPF (smtp.mailfrom) or DMARC (header.from) for exactly that domain', () => {
    expect(senderDomainVerified([GOOGLE], 'example.com')).toBe(true);
    expect(senderDomainVerified(['mx; dkim=pass header.d=example.com'], 'EXAMPLE.com')).toBe(true);
    expect(senderDomainVerified(['mx; dkim=none', 'mx; spf=pass smtp.mailfrom=example.com'], 'example.com')).toBe(true);
    expect(senderDomainVerified(['mx; dmarc=pass header.from=example.com'], 'example.com')).toBe(true);
  });

  it('fails on no header, another domain, a subdomain, a non-pass result or an untrusted receiver', () => {
    expect(senderDomainVerified([], 'example.com')).toBe(false);
    expect(senderDomainVerified([GOOGLE], 'example.org')).toBe(false);
    expect(senderDomainVerified(['mx; dkim=pass header.d=mail.example.com'], 'example.com')).toBe(false);
    expect(senderDomainVerified(['mx; dkim=fail header.d=example.com; spf=softfail smtp.mailfrom=example.com; dmarc=fail header.from=example.com'], 'example.com')).toBe(false);
    expect(senderDomainVerified(['mx; spf=pass smtp.helo=example.com; iprev=pass policy.iprev=192.0.2.1'], 'example.com')).toBe(false);
    expect(senderDomainVerified([GOOGLE], '')).toBe(false);
    expect(senderDomainVerified([GOOGLE], 'example.com', ['mx.correo.test'])).toBe(false);
    expect(senderDomainVerified([GOOGLE], 'example.com', ['MX.google.com'])).toBe(true);
  });

  it('domainOf reads addresses, @domains and bare domains', () => {
    expect([domainOf('Ana@Example.com'), domainOf('@example.com'), domainOf('example.com.'), domainOf(''), domainOf(undefined)]).toEqual(['example.com', 'example.com', 'example.com', null, null]);
  });
});
