import type Argon2 from 'argon2';

/** argon2, a native addon (~10 ms to load), is loaded with the first password hashed or checked, not at start. */
let argon2: Promise<typeof Argon2> | undefined;
const loadArgon2 = () => (argon2 ??= import('argon2').then((module) => module.default));

export async function hashPassword(password: string): Promise<string> {
  const { hash, argon2id } = await loadArgon2();
  // OWASP's argon2id baseline (19 MiB, 2 passes): strong enough, and quick enough for a login.
  return hash(password, { type: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  try {
    return await verify(hash, password);
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
