import type { ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { defaultLanguage, supportedLanguages, type Language } from '@telemedicina/shared/i18n';
import type { AppServices } from '../context.js';
import { getCachedClinicSettings } from '../settings/clinic-settings-cache.js';

export interface ClientConfigContext {
  version: string;
  /** The separate real-time port as reachable now (bound port), or null when disabled. */
  getRealtimePort: () => number | null;
}

export interface ClientConfig {
  version: string;
  realtimePort: number | null;
  languages: readonly Language[];
  defaultLanguage: Language;
  clinic: ClinicSettings;
}

/**
 * The public, non-secret configuration the browser needs at start, with the
 * clinic's public settings (name, logo, zone, language, upload limits). Read
 * on every page load: the settings come from a cache at most 5 s old.
 */
export async function getClientConfig(
  context: ClientConfigContext,
  services: Pick<AppServices, 'db' | 'config'>,
): Promise<ClientConfig> {
  const { settings } = await getCachedClinicSettings(services.db, services.config);
  return {
    version: context.version,
    realtimePort: context.getRealtimePort(),
    languages: supportedLanguages,
    defaultLanguage,
    clinic: settings,
  };
}
