import { z } from 'zod';
import { displayText } from './display-text.js';

/**
 * Contracts of the diagnosis catalogue and of prescriptions. REST paths are under
 * `/api/v1`. The public verification answer carries nothing about the patient and no
 * medication names: a pharmacist checks that the paper in front of them is genuine, still valid
 * and signed by that doctor; what it prescribes they read on the paper itself.
 */

// ---------------------------------------------------------------- diagnoses

export const diagnosisSearchMaxResults = 20;

/** `GET /diagnoses?q=&limit=`: a code prefix (J06, j06.9) or words in Spanish or English. */
export const diagnosisSearchQuerySchema = z.object({
  q: z.string().trim().min(1, { message: 'validation.required' }).max(100, { message: 'validation.tooLong' }),
  limit: z.coerce
    .number({ message: 'validation.number' })
    .int({ message: 'validation.integer' })
    .min(1, { message: 'validation.range' })
    .max(diagnosisSearchMaxResults, { message: 'validation.range' })
    .default(10),
});
export type DiagnosisSearchQuery = z.infer<typeof diagnosisSearchQuerySchema>;

/** An ICD-10 code as the catalogue writes it: a letter, two digits, optionally a dot and 1–2 more. */
export const diagnosisCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z][0-9]{2}(\.[0-9A-Z]{1,2})?$/, { message: 'validation.invalid' });

export const diagnosisSchema = z.object({
  code: z.string(),
  /** ICD-10 chapter, in roman numerals (I … XXII). */
  chapter: z.string(),
  nameEs: z.string(),
  nameEn: z.string(),
});
export type Diagnosis = z.infer<typeof diagnosisSchema>;

export const diagnosisListSchema = z.object({ items: z.array(diagnosisSchema) });
export type DiagnosisList = z.infer<typeof diagnosisListSchema>;

// ---------------------------------------------------------------- prescriptions

export const prescriptionMaxItems = 10;
export const prescriptionStatuses = ['active', 'cancelled'] as const;
export type PrescriptionStatus = (typeof prescriptionStatuses)[number];

/** A line of a prescription (medication, dose, route…): printed and read as a label. */
const requiredText = (max: number) =>
  displayText(
    z
      .string({ message: 'validation.required' })
      .trim()
      .min(1, { message: 'validation.required' })
      .max(max, { message: 'validation.tooLong' }),
  );

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: 'validation.tooLong' })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));

export const prescriptionItemInputSchema = z.object({
  medication: requiredText(200),
  dose: requiredText(100),
  route: requiredText(60),
  frequency: requiredText(100),
  duration: requiredText(60),
  quantity: requiredText(60),
  instructions: optionalText(500),
});
export type PrescriptionItemInput = z.input<typeof prescriptionItemInputSchema>;

/** `POST /patients/:patientId/prescriptions`. */
export const createPrescriptionRequestSchema = z.object({
  items: z
    .array(prescriptionItemInputSchema)
    .min(1, { message: 'validation.required' })
    .max(prescriptionMaxItems, { message: 'validation.tooMany' }),
  appointmentId: z.uuid({ message: 'validation.id' }).nullish(),
  notes: optionalText(2000),
});
export type CreatePrescriptionRequest = z.input<typeof createPrescriptionRequestSchema>;

/** `POST /prescriptions/:id/cancel`. */
export const cancelPrescriptionRequestSchema = z.object({
  reason: z
    .string({ message: 'validation.required' })
    .trim()
    .min(3, { message: 'validation.reasonTooShort' })
    .max(500, { message: 'validation.reasonTooLong' }),
});
export type CancelPrescriptionRequest = z.infer<typeof cancelPrescriptionRequestSchema>;

export const prescriptionItemSchema = z.object({
  position: z.number().int(),
  medication: z.string(),
  dose: z.string(),
  route: z.string(),
  frequency: z.string(),
  duration: z.string(),
  quantity: z.string(),
  instructions: z.string().nullable(),
});
export type PrescriptionItem = z.infer<typeof prescriptionItemSchema>;

const personSchema = z.object({ id: z.string(), name: z.string() });

export const prescriptionSchema = z.object({
  id: z.string(),
  verificationCode: z.string(),
  status: z.enum(prescriptionStatuses),
  patient: personSchema.extend({ dateOfBirth: z.string().nullable(), language: z.string() }),
  doctor: personSchema.extend({ licenseNumber: z.string().nullable() }),
  appointmentId: z.string().nullable(),
  notes: z.string().nullable(),
  issuedAt: z.string(),
  cancelledAt: z.string().nullable(),
  cancellationReason: z.string().nullable(),
  items: z.array(prescriptionItemSchema),
  /** Where anyone holding the paper checks it: APP origin + `/verify/<code>`. */
  verificationUrl: z.string(),
  /** The signed-in user issued it (and may cancel it while active). */
  isIssuer: z.boolean(),
});
export type Prescription = z.infer<typeof prescriptionSchema>;

export const prescriptionSummarySchema = z.object({
  id: z.string(),
  verificationCode: z.string(),
  status: z.enum(prescriptionStatuses),
  doctor: personSchema,
  issuedAt: z.string(),
  itemsCount: z.number().int(),
  medications: z.array(z.string()),
  /** The visit it was issued in, when there was one (the portal lists it under that visit). */
  appointmentId: z.string().nullable().optional(),
});
export type PrescriptionSummary = z.infer<typeof prescriptionSummarySchema>;

export const prescriptionListSchema = z.object({ items: z.array(prescriptionSummarySchema) });
export type PrescriptionList = z.infer<typeof prescriptionListSchema>;

/**
 * A verification code: 12 characters of Crockford base32 in three groups (XXXX-XXXX-XXXX),
 * 60 random bits. Typed by hand, so lower case, missing dashes and the letters Crockford reads
 * as digits (O → 0, I and L → 1) are accepted and normalised.
 */
export const verificationCodePattern = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** The canonical form of a typed code, or null when it cannot be one. */
export function normalizeVerificationCode(input: string): string | null {
  const compact = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (compact.length !== 12) {
    return null;
  }
  const code = `${compact.slice(0, 4)}-${compact.slice(4, 8)}-${compact.slice(8)}`;
  return verificationCodePattern.test(code) ? code : null;
}

export const verificationCodeParamsSchema = z.object({
  code: z.string().max(32, { message: 'validation.invalid' }),
});

/** `GET /prescriptions/verify/:code` (public): never the patient, never the medications. */
export const prescriptionVerificationSchema = z.object({
  valid: z.boolean(),
  status: z.enum(prescriptionStatuses),
  issuedAt: z.string(),
  doctor: z.object({ name: z.string(), licenseNumber: z.string().nullable() }),
  itemsCount: z.number().int(),
});
export type PrescriptionVerification = z.infer<typeof prescriptionVerificationSchema>;
