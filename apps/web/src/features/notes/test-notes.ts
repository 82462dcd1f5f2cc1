import type { VisitNote } from '@telemedicina/shared/notes';

export const patientId = '11111111-1111-4111-8111-111111111111';
export const appointmentId = '22222222-2222-4222-8222-222222222222';
export const doctorId = '33333333-3333-4333-8333-333333333333';

/** A note as the server presents it, with overrides. */
export function sampleNote(overrides: Partial<VisitNote> = {}): VisitNote {
  return {
    id: '44444444-4444-4444-8444-444444444444',
    appointmentId,
    patient: { id: patientId, name: 'Luis García' },
    doctor: { id: doctorId, name: 'Dra. Carmen Ruiz', licenseNumber: 'MG-1' },
    status: 'draft',
    version: 1,
    sections: { subjective: '', objective: '', assessment: '', plan: '' },
    diagnoses: [],
    addenda: [],
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    signedAt: null,
    summaryDocumentId: null,
    canEdit: true,
    canAmend: false,
    ...overrides,
  };
}
