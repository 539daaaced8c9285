/**
 * id_tokens signed RS256 with a key made at start. No JOSE library is installed and this is a stand-in,
 * so the compact JWS is put together by hand with node:crypto; the public key is served as a JWKS so a
 * client that checks signatures can.
 */
import { createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

export interface IdTokenSigner {
  sign(claims: Record<string, unknown>): string;
  jwks(): { keys: Record<string, unknown>[] };
}

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export function createIdTokenSigner(): IdTokenSigner {
  const { privateKey }: { privateKey: KeyObject } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(8).toString('hex');
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return {
    sign(claims) {
      const signingInput = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${base64url(JSON.stringify(claims))}`;
      return `${signingInput}.${base64url(sign('sha256', Buffer.from(signingInput), privateKey))}`;
    },
    jwks: () => ({ keys: [{ ...publicJwk, kid, alg: 'RS256', use: 'sig' }] }),
  };
}
