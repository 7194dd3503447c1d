// Password hashing (argon2id via Bun.password) and the random passwords given to a first admin.

// Verified against when the username is unknown, so a wrong name costs as long as a wrong password.
let decoyHash: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (hash === null) {
    decoyHash ??= hashPassword(crypto.randomUUID());
    await Bun.password.verify(password, await decoyHash);
    return false;
  }
  return Bun.password.verify(password, hash);
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
