import { describe, expect, it } from 'vitest';
import { checkPassword } from './password-policy.js';

describe('checkPassword', () => {
  it('accepts the demo password and long passphrases', () => {
    expect(checkPassword('Telemedicina2026!').problems).toEqual([]);
    expect(checkPassword('correct horse battery staple').problems).toEqual([]);
    expect(checkPassword('Telemedicina2026!').score).toBeGreaterThanOrEqual(3);
  });

  it.each([
    ['short1!', 'tooShort'],
    ['Password123!', 'tooCommon'],
    ['contraseña2024', 'tooCommon'],
    ['aaaaaaaaaaaa', 'tooSimple'],
  ] as const)('refuses %s as %s', (password, problem) => {
    expect(checkPassword(password).problems).toContain(problem);
  });

  it('refuses passwords containing the email name or the person name', () => {
    expect(checkPassword('mariagarcia#2026', { email: 'mariagarcia@example.com' }).problems).toContain(
      'containsPersonalData',
    );
    expect(checkPassword('Fernandez-rocks-99', { name: 'Ana Fernández Fernandez' }).problems).toContain(
      'containsPersonalData',
    );
  });

  it('refuses absurdly long passwords (hashing cost) and caps the score of refused ones', () => {
    const check = checkPassword('x'.repeat(129) + 'Aa1!bcdefg');
    expect(check.problems).toContain('tooLong');
    expect(check.score).toBeLessThanOrEqual(1);
  });

  it('scores longer, more varied passwords higher', () => {
    expect(checkPassword('abcdefghij').score).toBeLessThan(checkPassword('Vq7!mZ2#pL9x@Rt4').score);
  });
});
