import 'i18next';
import type translation from '../../public/assets/i18n/es.json';

// Translation keys are checked at compile time against the Spanish file (the English one has the
// same keys; a unit test enforces it).
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof translation };
  }
}
