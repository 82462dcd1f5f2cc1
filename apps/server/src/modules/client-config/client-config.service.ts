import { defaultLanguage, supportedLanguages, type Language } from '@telemedicina/shared';

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
}

/** The public, non-secret configuration the browser needs at start. */
export function getClientConfig(context: ClientConfigContext): ClientConfig {
  return {
    version: context.version,
    realtimePort: context.getRealtimePort(),
    languages: supportedLanguages,
    defaultLanguage,
  };
}
