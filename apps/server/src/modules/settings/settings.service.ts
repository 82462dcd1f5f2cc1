import { z } from 'zod';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/client.js';
import { readSettings } from './settings.repository.js';

/** Setting keys this area reads, with their defaults. */
export const settingKeys = {
  mfaRequiredRoles: 'mfa.requiredRoles',
  idleMinutesStaff: 'session.idleMinutesStaff',
  idleMinutesPatient: 'session.idleMinutesPatient',
  clinicName: 'clinic.name',
  clinicTimeZone: 'clinic.timeZone',
} as const;

/** Roles that must use a second factor when `mfa.requiredRoles` was never set. */
export const defaultMfaRequiredRoles = ['admin', 'doctor'];

export interface IdentitySettings {
  mfaRequiredRoles: string[];
  idleMinutesStaff: number;
  idleMinutesPatient: number;
  clinicName: string;
  clinicTimeZone: string;
}

const roleKeysValue = z.array(z.string());
const minutesValue = z
  .number()
  .int()
  .min(1)
  .max(24 * 60);
const nameValue = z.string().min(1).max(120);

/**
 * The settings that shape sign-in and sessions, in one query. A missing or
 * malformed value falls back to the environment's default, so a bad edit
 * never locks everyone out.
 */
export async function loadIdentitySettings(db: Database, config: Config): Promise<IdentitySettings> {
  const stored = await readSettings(db, Object.values(settingKeys));
  const pick = <T>(key: string, schema: z.ZodType<T>, fallback: T): T => {
    const parsed = schema.safeParse(stored.get(key));
    return parsed.success ? parsed.data : fallback;
  };
  return {
    mfaRequiredRoles: pick(settingKeys.mfaRequiredRoles, roleKeysValue, defaultMfaRequiredRoles),
    idleMinutesStaff: pick(settingKeys.idleMinutesStaff, minutesValue, config.sessionIdleMinutesStaff),
    idleMinutesPatient: pick(settingKeys.idleMinutesPatient, minutesValue, config.sessionIdleMinutesPatient),
    clinicName: pick(settingKeys.clinicName, nameValue, 'Telemedicina'),
    clinicTimeZone: pick(settingKeys.clinicTimeZone, nameValue, 'UTC'),
  };
}
