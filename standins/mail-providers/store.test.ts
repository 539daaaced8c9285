import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_LIFETIME_MS, ProviderStore, type Grant } from './store.ts';

const grant: Grant = { provider: 'microsoft', clientId: 'c', scopes: ['Mail.Send'], email: 'Uno@Outlook.test', name: null, nonce: null };
const code = (store: ProviderStore) => store.issueCode({ ...grant, redirectUri: 'http://127.0.0.1:1/', challenge: 'x'.repeat(43), offline: true });

afterEach(() => vi.useRealTimers());

describe('ProviderStore', () => {
  it('codes last five minutes and serve once', () => {
    vi.useFakeTimers();
    const store = new ProviderStore(3600);
    const fresh = code(store);
    const late = code(store);
    expect(store.redeemCode(fresh, 'microsoft')).toMatchObject({ email: 'Uno@Outlook.test' });
    expect(store.redeemCode(fresh, 'microsoft')).toBe('reused');
    expect(store.redeemCode(late, 'google')).toBe('unknown');
    vi.advanceTimersByTime(CODE_LIFETIME_MS + 1);
    expect(store.redeemCode(late, 'microsoft')).toBe('expired');
  });

  it('access tokens expire with their lifetime or on demand; revoking an address ignores case', () => {
    vi.useFakeTimers();
    const store = new ProviderStore(60);
    const access = store.issueAccessToken(grant, 'f');
    const refresh = store.issueRefreshToken(grant, 'f');
    vi.advanceTimersByTime(59_000);
    expect(store.accessGrant(access)).not.toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(store.accessGrant(access)).toBeNull();

    const second = store.issueAccessToken(grant, 'f');
    store.expireAccessTokens();
    expect(store.accessGrant(second)).toBeNull();
    expect(store.refreshGrant(refresh, 'microsoft', 'c')).not.toBeNull();
    expect(store.refreshGrant(refresh, 'microsoft', 'another-client')).toBeNull();
    store.revokeEmail('uno@outlook.TEST');
    expect(store.refreshGrant(refresh, 'microsoft', 'c')).toBeNull();
  });

  it('a replayed code revokes the whole chain it started, rotations included', () => {
    const store = new ProviderStore(3600);
    const first = code(store);
    expect(store.redeemCode(first, 'microsoft')).not.toBe('reused');
    const rotated = store.issueRefreshToken(grant, first);
    const unrelated = store.issueRefreshToken(grant, 'another-code');
    expect(store.redeemCode(first, 'microsoft')).toBe('reused');
    expect(store.refreshGrant(rotated, 'microsoft', 'c')).toBeNull();
    expect(store.refreshGrant(unrelated, 'microsoft', 'c')).not.toBeNull();
  });

  it('failNext answers the given number of calls, then stops', () => {
    const store = new ProviderStore(3600);
    store.failNext('graph', 503, 2, 3);
    expect(store.takeFailure('gmail')).toBeNull();
    expect(store.takeFailure('graph')).toEqual({ status: 503, retryAfterSeconds: 3 });
    expect(store.takeFailure('graph')).toEqual({ status: 503, retryAfterSeconds: 3 });
    expect(store.takeFailure('graph')).toBeNull();
  });
});
