import type {
  Prescription,
  PrescriptionSummary,
  PrescriptionVerification,
} from '@telemedicina/shared/prescriptions';
import type { PrescriptionRecord } from './prescriptions.repository.js';

export function presentPrescription(
  record: PrescriptionRecord,
  options: { verificationUrl: string; viewerUserId: string },
): Prescription {
  const { prescription, items, patient, doctor } = record;
  return {
    id: prescription.id,
    verificationCode: prescription.verificationCode,
    status: prescription.status,
    patient: {
      id: patient.id,
      name: patient.name,
      dateOfBirth: patient.dateOfBirth,
      language: patient.language,
    },
    doctor: { id: doctor.id, name: doctor.name, licenseNumber: doctor.licenseNumber },
    appointmentId: prescription.appointmentId,
    notes: prescription.notes,
    issuedAt: prescription.issuedAt.toISOString(),
    cancelledAt: prescription.cancelledAt?.toISOString() ?? null,
    cancellationReason: prescription.cancellationReason,
    items: items.map((item) => ({
      position: item.position,
      medication: item.medication,
      dose: item.dose,
      route: item.route,
      frequency: item.frequency,
      duration: item.duration,
      quantity: item.quantity,
      instructions: item.instructions,
    })),
    verificationUrl: options.verificationUrl,
    isIssuer: doctor.id === options.viewerUserId,
  };
}

export function presentPrescriptionSummary(row: {
  id: string;
  verificationCode: string;
  status: 'active' | 'cancelled';
  issuedAt: Date;
  doctorId: string;
  doctorName: string;
  medications: string[];
  appointmentId?: string | null;
}): PrescriptionSummary {
  return {
    id: row.id,
    verificationCode: row.verificationCode,
    status: row.status,
    doctor: { id: row.doctorId, name: row.doctorName },
    issuedAt: row.issuedAt.toISOString(),
    itemsCount: row.medications.length,
    medications: row.medications,
    appointmentId: row.appointmentId ?? null,
  };
}

/**
 * The public answer: whether the paper is genuine and in force, when and by whom it was issued,
 * how many items it has. Nothing identifies the patient and no medication is named, so a leaked
 * or guessed code tells a stranger nothing about anyone's health.
 */
export function presentVerification(record: PrescriptionRecord): PrescriptionVerification {
  return {
    valid: record.prescription.status === 'active',
    status: record.prescription.status,
    issuedAt: record.prescription.issuedAt.toISOString(),
    doctor: { name: record.doctor.name, licenseNumber: record.doctor.licenseNumber },
    itemsCount: record.items.length,
  };
}
