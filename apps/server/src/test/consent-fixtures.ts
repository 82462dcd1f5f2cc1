import type { App } from '../app.js';
import { send, type SignedInClient } from './factories.js';
import { telemedicineConsentKey } from '../modules/consents/consent-texts.js';
import { findDocumentBySystemKey, findDocumentWithCurrent } from '../modules/consents/consents.repository.js';

/**
 * Signs the current telemedicine consent as `patient` (typed name), for tests about something else
 * that count what a booking sends: a patient who has signed is not asked again at booking.
 */
export async function signTelemedicineConsent(app: App, patient: SignedInClient): Promise<void> {
  const document = await findDocumentBySystemKey(app.services.db, telemedicineConsentKey);
  const current = document === null ? null : await findDocumentWithCurrent(app.services.db, document.id);
  if (current === null) {
    throw new Error('The telemedicine consent is not seeded');
  }
  const response = await send(app, 'POST', `/api/v1/consent-documents/${current.document.id}/signatures`, {
    session: patient.token,
    body: { versionId: current.current.id, language: 'es', method: 'typed', typedName: patient.me.user.name },
  });
  if (response.statusCode !== 201) {
    throw new Error(`Signing the telemedicine consent answered ${response.statusCode}: ${response.body}`);
  }
}
