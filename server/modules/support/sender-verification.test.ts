import { describe, expect, it } from 'vitest';
import { domainOf, parseAuthenticationResults, senderDomainVerified, serviceVerdict } from './sender-verification.ts';

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

/** Header fields top to bottom, written as the raw lines 'Name: value'. */
const fields = (...lines: string[]) => lines.map((line) => ({ name: line.slice(0, line.indexOf(':')), value: line.slice(line.indexOf(':') + 1) }));
const ar = (value: string) => `Authentication-Results: ${value}`;
const verified = (values: string[], domain: string, ids: string[] = ['mx.google.com', 'mx']) => senderDomainVerified(fields(...values.map(ar)), domain, ids);

describe('senderDomainVerified', () => {
  it('passes on DKIM (header.d or header.i), SPF (smtp.mailfrom) or DMARC (header.from) for exactly that domain', () => {
    expect(verified([GOOGLE], 'example.com')).toBe(true);
    expect(verified(['mx; dkim=pass header.d=example.com'], 'EXAMPLE.com')).toBe(true);
    expect(verified(['mx; dkim=none; spf=pass smtp.mailfrom=example.com'], 'example.com')).toBe(true);
    expect(verified(['mx; dmarc=pass header.from=example.com'], 'example.com')).toBe(true);
  });

  it('fails on no header, another domain, a subdomain, a non-pass result or an untrusted receiver', () => {
    expect(verified([], 'example.com')).toBe(false);
    expect(verified([GOOGLE], 'example.org')).toBe(false);
    expect(verified(['mx; dkim=pass header.d=mail.example.com'], 'example.com')).toBe(false);
    expect(verified(['mx; dkim=fail header.d=example.com; spf=softfail smtp.mailfrom=example.com; dmarc=fail header.from=example.com'], 'example.com')).toBe(false);
    expect(verified(['mx; spf=pass smtp.helo=example.com; iprev=pass policy.iprev=192.0.2.1'], 'example.com')).toBe(false);
    expect(verified([GOOGLE], '')).toBe(false);
    expect(verified([GOOGLE], 'example.com', ['mx.correo.test'])).toBe(false);
    expect(verified([GOOGLE], 'example.com', ['MX.google.com'])).toBe(true);
    expect(verified([GOOGLE], 'example.com', [])).toBe(false);
  });

  it('reads only the service\'s own verdict, the topmost header with its id: never one lower down (RFC 8601 §5)', () => {
    const forged = ar('mx.google.com; dkim=pass header.d=example.com; spf=pass smtp.mailfrom=example.com; dmarc=pass header.from=example.com');
    const service = ar('mx.google.com; dkim=none; spf=fail smtp.mailfrom=example.com');
    const received = 'Received: from mail.evil.es (mail.evil.es [198.51.100.7]) by mx.google.com; Fri, 27 Nov 2026 10:00:01 +0100';
    const ids = ['mx.google.com'];
    // The service's verdict on top; the sender's own header below its Received, below From, or right below it.
    expect(senderDomainVerified(fields(service, received, forged, 'From: ana@example.com'), 'example.com', ids)).toBe(false);
    expect(senderDomainVerified(fields(service, 'From: ana@example.com', forged), 'example.com', ids)).toBe(false);
    expect(senderDomainVerified(fields(service, forged, received), 'example.com', ids)).toBe(false);
    expect(senderDomainVerified(fields(ar('mx.google.com; dkim=fail header.d=example.com'), forged), 'example.com', ids)).toBe(false);
    expect(senderDomainVerified(fields(ar('mx.google.com; none'), forged), 'example.com', ids)).toBe(false);
    // Gmail's order: what later hops prepend (another receiver's verdict too), then its Received and Received-SPF above its verdict, which counts.
    const gmail = fields(
      'Delivered-To: soporte@example.org',
      'Received: by 2002:a05:6000:1::1 with SMTP id x; Fri, 27 Nov 2026 10:00:02 +0100',
      ar('mx.otro.es; dkim=none'),
      'ARC-Authentication-Results: i=1; mx.google.com; dkim=pass header.d=example.com',
      'Return-Path: <ana@example.com>',
      received,
      'Received-SPF: pass (google.com: domain of ana@example.com designates 192.0.2.1 as permitted sender)',
      ar(GOOGLE),
      'DKIM-Signature: v=1; d=example.com; s=s1; b=abc',
      ar('mx.google.com; dkim=fail header.d=example.com'),
      'From: ana@example.com',
    );
    expect(senderDomainVerified(gmail, 'example.com', ids)).toBe(true);
    expect(serviceVerdict(gmail, ids)?.results.map((entry) => entry.method)).toEqual(['dkim', 'spf', 'dmarc']);
    expect(serviceVerdict(gmail, ['mx.nadie.es'])).toBeNull();
  });

  it('domainOf reads addresses, @domains and bare domains', () => {
    expect([domainOf('Ana@Example.com'), domainOf('@example.com'), domainOf('example.com.'), domainOf(''), domainOf(undefined)]).toEqual(['example.com', 'example.com', 'example.com', null, null]);
  });
});
