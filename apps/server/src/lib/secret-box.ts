import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Encryption of small secrets at rest (TOTP keys) with AES-256-GCM, and a
 * keyed hash for recovery codes, both from one configured key. Separate keys
 * are derived with HKDF so one purpose never reuses the other's key.
 */
export interface SecretBox {
  encrypt(plaintext: string): string;
  /** @throws when the value was not made with this key or was altered. */
  decrypt(sealed: string): string;
  /** HMAC-SHA-256 (hex) under the derived hashing key. */
  keyedHash(value: string): string;
}

const version = 'v1';

/** Builds the box from key material (any string of 32+ characters). */
export function createSecretBox(keyMaterial: string): SecretBox {
  const material = Buffer.from(keyMaterial, 'utf8');
  const encryptionKey = Buffer.from(
    hkdfSync('sha256', material, 'telemedicina', 'mfa-secret-encryption', 32),
  );
  const hashingKey = Buffer.from(hkdfSync('sha256', material, 'telemedicina', 'mfa-recovery-code-hmac', 32));
  return {
    encrypt: (plaintext) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        version,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join(':');
    },
    decrypt: (sealed) => {
      const [tag, iv, authTag, body] = sealed.split(':');
      if (tag !== version || iv === undefined || authTag === undefined || body === undefined) {
        throw new Error('Not a sealed secret of this version.');
      }
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(authTag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
    keyedHash: (value) => createHmac('sha256', hashingKey).update(value, 'utf8').digest('hex'),
  };
}

/** File (inside the data folder) holding the generated key when MFA_ENCRYPTION_KEY is not set. */
export const generatedKeyFile = path.join('secrets', 'mfa-encryption.key');

/**
 * The configured key, or the one generated on the first start and kept in
 * `<dataDir>/secrets/` (readable by the server's user only). Losing that file
 * makes enrolled second factors unusable, so back it up with the data folder.
 */
export async function resolveSecretKeyMaterial(configured: string | null, dataDir: string): Promise<string> {
  if (configured !== null) {
    return configured;
  }
  const file = path.join(dataDir, generatedKeyFile);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) {
      return existing;
    }
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) {
      throw error;
    }
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const created = randomBytes(32).toString('base64url');
  try {
    await writeFile(file, `${created}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') {
      // Another process made it first: use theirs.
      return (await readFile(file, 'utf8')).trim();
    }
    throw error;
  }
  await chmod(file, 0o600);
  return created;
}
