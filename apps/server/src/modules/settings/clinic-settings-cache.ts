import { performance } from 'node:perf_hooks';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/client.js';
import { loadClinicSettings, type LoadedClinicSettings } from './settings.service.js';

/** `GET /config` is public and read on every page load: the settings are kept this long. */
export const clinicSettingsCacheMs = 5_000;

interface CacheEntry {
  loaded: Promise<LoadedClinicSettings>;
  expiresAt: number;
}
/** Per database handle, so apps (and test files) never see each other's entries. */
const cache = new WeakMap<Database, CacheEntry>();

/**
 * The clinic settings for high-traffic readers (`GET /config`, the logo),
 * at most {@link clinicSettingsCacheMs} old; concurrent callers share one
 * query. Writers call {@link invalidateClinicSettingsCache} after committing,
 * so this instance sees a change at once and other instances within 5 s.
 */
export function getCachedClinicSettings(db: Database, config: Config): Promise<LoadedClinicSettings> {
  const at = performance.now();
  const entry = cache.get(db);
  if (entry !== undefined && entry.expiresAt > at) {
    return entry.loaded;
  }
  const loaded = loadClinicSettings(db, config);
  cache.set(db, { loaded, expiresAt: at + clinicSettingsCacheMs });
  loaded.catch(() => {
    if (cache.get(db)?.loaded === loaded) {
      cache.delete(db);
    }
  });
  return loaded;
}

export function invalidateClinicSettingsCache(db: Database): void {
  cache.delete(db);
}
