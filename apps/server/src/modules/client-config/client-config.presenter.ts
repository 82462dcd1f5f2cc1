import type { ClientConfigResponse } from '@telemedicina/shared/api';
import { realtimePath } from '@telemedicina/shared/realtime';
import { presentPublicClinicSettings } from '../settings/settings.presenter.js';
import type { ClientConfig } from './client-config.service.js';

export function presentClientConfig(config: ClientConfig): ClientConfigResponse {
  return {
    version: config.version,
    realtime: { port: config.realtimePort, path: realtimePath },
    languages: [...config.languages],
    defaultLanguage: config.defaultLanguage,
    clinic: presentPublicClinicSettings(config.clinic),
  };
}
