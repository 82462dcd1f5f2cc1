/**
 * The password policy, shared so the form's strength meter and the server's
 * refusal agree. It follows NIST SP 800-63B: length over composition rules,
 * refuse common and personal passwords, no forced periodic changes.
 */
export const passwordMinLength = 10;
export const passwordMaxLength = 128;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'tooCommon' | 'containsPersonalData' | 'tooSimple';

export interface PasswordCheck {
  /** 0 (very weak) … 4 (very strong), for the meter. */
  score: 0 | 1 | 2 | 3 | 4;
  /** Empty when the password is accepted; otherwise the reasons, each with a translation key. */
  problems: PasswordProblem[];
}

// The most common passwords in breach corpora, plus obvious local ones. Compared after lower-casing
// and stripping trailing digits/symbols, so "Password123!" counts as "password".
const commonPasswords = new Set([
  '123456',
  '1234567890',
  'password',
  'contraseña',
  'contrasena',
  'qwerty',
  'qwertyuiop',
  'abc123',
  'iloveyou',
  'admin',
  'administrator',
  'administrador',
  'welcome',
  'bienvenido',
  'letmein',
  'monkey',
  'dragon',
  'football',
  'futbol',
  'baseball',
  'sunshine',
  'princess',
  'superman',
  'batman',
  'master',
  'shadow',
  'michael',
  'jennifer',
  'trustno1',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'changeme',
  'secret',
  'secreto',
  'teamo',
  'tequiero',
  'amor',
  'mexico',
  'argentina',
  'colombia',
  'espana',
  'españa',
  'barcelona',
  'madrid',
  'realmadrid',
  'doctor',
  'medico',
  'paciente',
  'hospital',
  'clinica',
  'salud',
  'health',
  'qazwsx',
  'zaq12wsx',
  'asdfghjkl',
  'zxcvbnm',
  'login',
  'starwars',
  'whatever',
  'hello',
  'hola',
  'freedom',
  'computer',
  'internet',
  'samsung',
  'google',
  'america',
]);

function stripDecorations(value: string): string {
  return value
    .toLowerCase()
    .replace(/[\d\W_]+$/u, '')
    .replace(/^[\d\W_]+/u, '');
}

function hasSequence(value: string): boolean {
  const lower = value.toLowerCase();
  const sequences = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
  for (const sequence of sequences) {
    for (let i = 0; i + 4 <= sequence.length; i++) {
      if (lower.includes(sequence.slice(i, i + 4))) {
        return true;
      }
    }
  }
  return false;
}

/** Scores and checks a password against the policy and the user's own data (email, name). */
export function checkPassword(
  password: string,
  personal: { email?: string; name?: string } = {},
): PasswordCheck {
  const problems: PasswordProblem[] = [];
  const length = [...password].length;
  if (length < passwordMinLength) {
    problems.push('tooShort');
  }
  if (length > passwordMaxLength) {
    problems.push('tooLong');
  }
  const lower = password.toLowerCase();
  const stripped = stripDecorations(password);
  if (
    commonPasswords.has(lower) ||
    (stripped.length > 0 && commonPasswords.has(stripped) && stripped.length >= length - 4)
  ) {
    problems.push('tooCommon');
  }
  const personalParts = [
    ...(personal.email ? [personal.email.split('@')[0] ?? ''] : []),
    ...(personal.name ? personal.name.split(/\s+/u) : []),
  ]
    .map((part) => part.toLowerCase())
    .filter((part) => part.length >= 4);
  if (personalParts.some((part) => lower.includes(part))) {
    problems.push('containsPersonalData');
  }
  const distinct = new Set(lower).size;
  if (length >= passwordMinLength && distinct < 5) {
    problems.push('tooSimple');
  }

  const classes = [/[a-z]/u, /[A-Z]/u, /\d/u, /[^A-Za-z0-9]/u].filter((re) => re.test(password)).length;
  let points = 0;
  points += length >= 8 ? 1 : 0;
  points += length >= 12 ? 1 : 0;
  points += length >= 16 ? 1 : 0;
  points += classes >= 3 ? 1 : 0;
  points += classes === 4 || length >= 20 ? 1 : 0;
  if (hasSequence(password) || /(.)\1\1/u.test(password)) {
    points -= 1;
  }
  if (problems.length > 0) {
    points = Math.min(points, 1);
  }
  const score = Math.max(0, Math.min(4, points)) as PasswordCheck['score'];
  return { score, problems };
}
