// Password hashing (argon2id via Bun.password) with bounded memory, and the random passwords given
// to a first admin.
//
// Bun's default argon2id takes 64 MiB per hash; 32 logins at once lifted the binary's RSS from 57 to
// 196 MB. The parameters are OWASP's minimum for argon2id (m=19 MiB, t=2, p=1; OWASP Password
// Storage Cheat Sheet), and at most two hashes run at once: whatever arrives meanwhile waits its
// turn, so a login flood costs time, never more than ~40 MiB. The limit is the process's, not an
// app's: memory is shared by everything in the process (the CLI, tests with several apps).

const ARGON2 = { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 } as const;
/** What a hash made with ARGON2 says about itself (Bun's argon2id always uses p=1). */
const CURRENT_PARAMETERS = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=1$`;
const HASHES_AT_ONCE = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function inHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHES_AT_ONCE) await new Promise<void>((wake) => waiting.push(wake));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

// Verified against when the username is unknown, so a wrong name costs as long as a wrong password.
let decoyHash: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return inHashingSlot(() => Bun.password.hash(password, ARGON2));
}

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (hash === null) {
    decoyHash ??= hashPassword(crypto.randomUUID());
    const decoy = await decoyHash;
    await inHashingSlot(() => Bun.password.verify(password, decoy));
    return false;
  }
  return inHashingSlot(() => Bun.password.verify(password, hash));
}

/** Whether a stored hash was made with other parameters (an older release's), to be re-hashed at the next login. */
export function needsRehash(hash: string): boolean {
  return !hash.startsWith(CURRENT_PARAMETERS);
}

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** 20 characters from an unambiguous alphabet (~115 bits), easy to copy from a log. */
export function generatePassword(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let password = "";
  for (const byte of bytes) {
    if (byte < 256 - (256 % ALPHABET.length)) password += ALPHABET[byte % ALPHABET.length];
    if (password.length === length) break;
  }
  return password.length === length ? password : generatePassword(length);
}
