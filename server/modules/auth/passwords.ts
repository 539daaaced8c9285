import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): strong enough, and quick enough for a login.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash never lets anyone in
  }
}

let dummyHash: Promise<string> | null = null;

/** Spends the same time as a real check, so an unknown email cannot be told apart by timing. */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-1A!');
  await verifyPassword(await dummyHash, password);
  return false;
}
