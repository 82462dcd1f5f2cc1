import type { MedicationRequest, Observation, Resource } from '@medplum/fhirtypes';
import { isUuid } from '../../lib/uuid.js';
import { grantFor, patientRequired, searchPatient } from './fhir-reader.js';
import {
  anyOf,
  dateBounds,
  emptyResult,
  ref,
  single,
  tokenCode,
  type ResourceHandler,
} from './fhir-resource.js';
import { badParam } from './fhir-outcome.js';
import {
  findPrescriptionItem,
  findVitalsRow,
  searchPrescriptionItems,
  searchVitalsObservations,
  type PrescriptionItemWithOrder,
  type VitalsRow,
} from './fhir.repository.js';

const loinc = 'http://loinc.org';
const ucum = 'http://unitsofmeasure.org';
const categorySystem = 'http://terminology.hl7.org/CodeSystem/observation-category';
const vitalSignsProfile = 'http://hl7.org/fhir/StructureDefinition/vitalsigns';

interface Quantity {
  column: keyof VitalsRow;
  loinc: string;
  display: string;
  unit: string;
  code: string;
}

/**
 * Each reported vital as a LOINC-coded observation in UCUM units (FHIR R4 vital signs profile);
 * blood pressure is one panel with systolic and diastolic components. Glucose is a laboratory
 * observation, not a vital sign.
 */
const vitals: readonly {
  key: string;
  loinc: string;
  display: string;
  profile: string | null;
  category: 'vital-signs' | 'laboratory';
  value: Quantity | null;
  components?: readonly Quantity[];
}[] = [
  {
    key: 'bp',
    loinc: '85354-9',
    display: 'Blood pressure panel with all children optional',
    profile: 'bp',
    category: 'vital-signs',
    value: null,
    components: [
      {
        column: 'systolicMmHg',
        loinc: '8480-6',
        display: 'Systolic blood pressure',
        unit: 'mmHg',
        code: 'mm[Hg]',
      },
      {
        column: 'diastolicMmHg',
        loinc: '8462-4',
        display: 'Diastolic blood pressure',
        unit: 'mmHg',
        code: 'mm[Hg]',
      },
    ],
  },
  {
    key: 'hr',
    loinc: '8867-4',
    display: 'Heart rate',
    profile: 'heartrate',
    category: 'vital-signs',
    value: {
      column: 'heartRateBpm',
      loinc: '8867-4',
      display: 'Heart rate',
      unit: 'beats/minute',
      code: '/min',
    },
  },
  {
    key: 'rr',
    loinc: '9279-1',
    display: 'Respiratory rate',
    profile: 'resprate',
    category: 'vital-signs',
    value: {
      column: 'respiratoryRate',
      loinc: '9279-1',
      display: 'Respiratory rate',
      unit: 'breaths/minute',
      code: '/min',
    },
  },
  {
    key: 'temp',
    loinc: '8310-5',
    display: 'Body temperature',
    profile: 'bodytemp',
    category: 'vital-signs',
    value: { column: 'temperatureC', loinc: '8310-5', display: 'Body temperature', unit: 'Cel', code: 'Cel' },
  },
  {
    key: 'spo2',
    loinc: '59408-5',
    display: 'Oxygen saturation in Arterial blood by Pulse oximetry',
    profile: 'oxygensat',
    category: 'vital-signs',
    value: {
      column: 'oxygenSaturation',
      loinc: '59408-5',
      display: 'Oxygen saturation',
      unit: '%',
      code: '%',
    },
  },
  {
    key: 'weight',
    loinc: '29463-7',
    display: 'Body weight',
    profile: 'bodyweight',
    category: 'vital-signs',
    value: { column: 'weightKg', loinc: '29463-7', display: 'Body weight', unit: 'kg', code: 'kg' },
  },
  {
    key: 'height',
    loinc: '8302-2',
    display: 'Body height',
    profile: 'bodyheight',
    category: 'vital-signs',
    value: { column: 'heightCm', loinc: '8302-2', display: 'Body height', unit: 'cm', code: 'cm' },
  },
  {
    key: 'glucose',
    loinc: '2339-0',
    display: 'Glucose [Mass/volume] in Blood',
    profile: null,
    category: 'laboratory',
    value: { column: 'glucoseMgDl', loinc: '2339-0', display: 'Glucose', unit: 'mg/dL', code: 'mg/dL' },
  },
];

const quantityOf = (row: VitalsRow, quantity: Quantity) => {
  const value = row[quantity.column];
  return typeof value === 'number' ? { value, unit: quantity.unit, system: ucum, code: quantity.code } : null;
};

/** The observations of one visit's report (one per vital reported). */
export function presentVitals(row: VitalsRow): Observation[] {
  const observations: Observation[] = [];
  for (const vital of vitals) {
    const components = (vital.components ?? [])
      .map((component) => ({ component, quantity: quantityOf(row, component) }))
      .filter((entry) => entry.quantity !== null);
    const value = vital.value === null ? null : quantityOf(row, vital.value);
    if (value === null && components.length === 0) {
      continue;
    }
    observations.push({
      resourceType: 'Observation',
      id: `${row.appointmentId}-${vital.key}`,
      ...(vital.profile === null
        ? {}
        : {
            meta: {
              profile: [vitalSignsProfile, `http://hl7.org/fhir/StructureDefinition/${vital.profile}`],
            },
          }),
      status: 'final',
      category: [
        {
          coding: [
            {
              system: categorySystem,
              code: vital.category,
              display: vital.category === 'vital-signs' ? 'Vital Signs' : 'Laboratory',
            },
          ],
          text: vital.category === 'vital-signs' ? 'Vital Signs' : 'Laboratory',
        },
      ],
      code: { coding: [{ system: loinc, code: vital.loinc, display: vital.display }], text: vital.display },
      subject: ref('Patient', row.patientUserId),
      encounter: ref('Encounter', row.appointmentId),
      effectiveDateTime: row.reportedAt.toISOString(),
      issued: row.reportedAt.toISOString(),
      performer: [ref('Patient', row.patientUserId)],
      ...(value === null ? {} : { valueQuantity: value }),
      ...(components.length === 0
        ? {}
        : {
            component: components.map(({ component, quantity }) => ({
              code: {
                coding: [{ system: loinc, code: component.loinc, display: component.display }],
                text: component.display,
              },
              valueQuantity: quantity!,
            })),
          }),
    });
  }
  return observations;
}

function observationTokens(resource: Resource, name: string): string[] {
  if (resource.resourceType !== 'Observation') {
    return [];
  }
  const concepts = name === 'category' ? (resource.category ?? []) : name === 'code' ? [resource.code] : [];
  return concepts.flatMap((concept) =>
    (concept.coding ?? []).map((coding) => `${coding.system}|${coding.code}`),
  );
}

export const observationHandler: ResourceHandler = {
  type: 'Observation',
  documentation:
    'Vital signs the patient reported for a visit (LOINC, UCUM, the FHIR vital signs profile); blood glucose as laboratory.',
  supportedProfiles: [vitalSignsProfile],
  searchParams: [
    { name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' },
    { name: 'category', type: 'token', documentation: 'vital-signs or laboratory.' },
    { name: 'code', type: 'token', documentation: 'A LOINC code (http://loinc.org|8867-4).' },
    { name: 'date', type: 'date', documentation: 'When it was reported (eq, ge, gt, le, lt).' },
  ],
  tokenValues: observationTokens,
  async read(reader, limit, id) {
    const match = /^([0-9a-f-]{36})-([a-z0-9]+)$/.exec(id);
    if (match === null || !isUuid(match[1]!)) {
      return null;
    }
    const row = await findVitalsRow(reader.ctx.db, match[1]!);
    const grant = row === null ? null : await grantFor(reader, limit, row.patientUserId, 'clinical');
    const resource =
      row === null ? undefined : presentVitals(row).find((observation) => observation.id === id);
    return grant === null || resource === undefined ? null : { resource, patient: grant };
  },
  async search(reader, limit, { params, count, offset }) {
    const categories = anyOf(params, 'category')?.map((value) => tokenCode(value, categorySystem));
    const codes = anyOf(params, 'code')?.map((value) => tokenCode(value, loinc));
    const dates = dateBounds(params, 'date');
    const target = await searchPatient(reader, limit, single(params, 'patient'), 'clinical');
    if (target.kind === 'missing') {
      throw patientRequired();
    }
    if (target.kind === 'none') {
      return emptyResult;
    }
    // The vitals asked for (category, code), each reported when any of its columns is set.
    const keys = vitals
      .filter(
        (vital) =>
          (categories === undefined || categories.includes(vital.category)) &&
          (codes === undefined || codes.includes(vital.loinc)),
      )
      .map((vital) => ({
        key: vital.key,
        columns: [...(vital.value === null ? [] : [vital.value]), ...(vital.components ?? [])].map(
          (quantity) => quantity.column,
        ),
      }));
    const { rows, total } = await searchVitalsObservations(reader.ctx.db, {
      patientId: target.grant.patientId,
      keys,
      dates,
      limit: count,
      offset,
    });
    const resources = rows.map(({ vitals: row, key }) => {
      const id = `${row.appointmentId}-${key}`;
      return presentVitals(row).find((observation) => observation.id === id)!;
    });
    return { resources, total, patients: [target.grant] };
  },
};

export function presentMedicationRequest({
  item,
  prescription,
  doctorName,
}: PrescriptionItemWithOrder): MedicationRequest {
  const instructions = [item.dose, item.route, item.frequency, item.duration].join(', ');
  return {
    resourceType: 'MedicationRequest',
    id: item.id,
    status: prescription.status === 'cancelled' ? 'cancelled' : 'active',
    ...(prescription.status === 'cancelled' && prescription.cancellationReason !== null
      ? { statusReason: { text: prescription.cancellationReason } }
      : {}),
    intent: 'order',
    groupIdentifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${prescription.id}` },
    medicationCodeableConcept: { text: item.medication },
    subject: ref('Patient', prescription.patientUserId),
    ...(prescription.appointmentId === null
      ? {}
      : { encounter: ref('Encounter', prescription.appointmentId) }),
    authoredOn: prescription.issuedAt.toISOString(),
    requester: ref('Practitioner', prescription.doctorUserId, doctorName),
    ...(prescription.notes === null || prescription.notes === ''
      ? {}
      : { note: [{ text: prescription.notes }] }),
    dosageInstruction: [
      {
        sequence: 1,
        text:
          item.instructions === null || item.instructions === ''
            ? instructions
            : `${instructions}. ${item.instructions}`,
        route: { text: item.route },
        timing: { code: { text: item.frequency } },
      },
    ],
    // The quantity is written freely ("21", "1 caja"): a number only when it is one.
    ...(/^\d+$/.test(item.quantity.trim())
      ? { dispenseRequest: { quantity: { value: Number(item.quantity.trim()) } } }
      : {}),
  };
}

export const medicationRequestHandler: ResourceHandler = {
  type: 'MedicationRequest',
  documentation:
    'Prescription items; status active, or cancelled when the prescription was cancelled (with the reason).',
  searchParams: [
    { name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' },
    { name: 'status', type: 'token', documentation: 'active or cancelled.' },
  ],
  async read(reader, limit, id) {
    const row = isUuid(id) ? await findPrescriptionItem(reader.ctx.db, id) : null;
    const grant =
      row === null ? null : await grantFor(reader, limit, row.prescription.patientUserId, 'prescriptions');
    return row === null || grant === null
      ? null
      : { resource: presentMedicationRequest(row), patient: grant };
  },
  async search(reader, limit, { params, count, offset }) {
    const statusValue = single(params, 'status');
    if (statusValue !== null && statusValue !== 'active' && statusValue !== 'cancelled') {
      throw badParam('status', 'The search parameter status takes active or cancelled here.');
    }
    const target = await searchPatient(reader, limit, single(params, 'patient'), 'prescriptions');
    if (target.kind === 'missing') {
      throw patientRequired();
    }
    if (target.kind === 'none') {
      return emptyResult;
    }
    const { rows, total } = await searchPrescriptionItems(reader.ctx.db, {
      patientId: target.grant.patientId,
      status: statusValue,
      limit: count,
      offset,
    });
    return { resources: rows.map(presentMedicationRequest), total, patients: [target.grant] };
  },
};
