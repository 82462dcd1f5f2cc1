import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export interface PasswordHashingCost {
  memoryCostKib: number;
  timeCost: number;
}

/** Hashes and checks passwords with argon2id (the library's default algorithm). */
export interface PasswordHasher {
  hash: (password: string) => Promise<string>;
  /** True when `password` matches `passwordHash`; false for a malformed hash. */
  verify: (passwordHash: string, password: string) => Promise<boolean>;
  /**
   * Spends the same time as {@link verify} against a hash nobody knows the
   * password of, for sign-ins with an unknown email: the answer's timing then
   * does not tell whether the account exists. Always false.
   */
  verifyDummy: (password: string) => Promise<false>;
  /** True when the hash was made with other parameters than the current ones (rehash at sign-in). */
  needsRehash: (passwordHash: string) => boolean;
}

/** Creates the hasher with the configured cost (production: 19 MiB, 2 passes; tests lighter). */
export function createPasswordHasher(cost: PasswordHashingCost): PasswordHasher {
  const options = { memoryCost: cost.memoryCostKib, timeCost: cost.timeCost, parallelism: 1 };
  let dummyHash: Promise<string> | null = null;
  const expectedParameters = `m=${cost.memoryCostKib},t=${cost.timeCost},p=1`;

  const check = async (passwordHash: string, password: string): Promise<boolean> => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  };

  return {
    hash: (password) => hash(password, options),
    verify: check,
    verifyDummy: async (password) => {
      dummyHash ??= hash(randomBytes(32).toString('base64url'), options);
      await check(await dummyHash, password);
      return false;
    },
    needsRehash: (passwordHash) => {
      const parts = passwordHash.split('$');
      return parts[1] !== 'argon2id' || parts[3] !== expectedParameters;
    },
  };
}
