import type { Appointment, Encounter } from '@medplum/fhirtypes';
import { isUuid } from '../../lib/uuid.js';
import { loadCanStaffReadVisitReasons } from '../settings/settings.service.js';
import {
  grantFor,
  grantsFor,
  isPatientReader,
  patientRequired,
  searchPatient,
  type FhirReader,
  type PatientGrant,
} from './fhir-reader.js';
import { anyOf, dateBounds, emptyResult, ref, single, type ResourceHandler } from './fhir-resource.js';
import { badParam } from './fhir-outcome.js';
import { findAppointmentRow, searchAppointmentRows, type FhirAppointmentRow } from './fhir.repository.js';

type AppointmentStatus = NonNullable<Appointment['status']>;

export const appointmentStatuses = {
  requested: 'pending',
  confirmed: 'booked',
  checked_in: 'checked-in',
  in_progress: 'arrived',
  completed: 'fulfilled',
  cancelled: 'cancelled',
  no_show: 'noshow',
} as const satisfies Record<FhirAppointmentRow['status'], AppointmentStatus>;

/** The R5 Appointment.virtualService as an R4 cross-version extension. */
export const virtualServiceExtension =
  'http://hl7.org/fhir/5.0/StructureDefinition/extension-Appointment.virtualService';

/** Whether the reader sees the visit's reason: clinical readers, staff when the clinic allows it. */
async function readsReason(reader: FhirReader, grant: PatientGrant): Promise<boolean> {
  return grant.chart?.access !== 'administrative' || (await loadCanStaffReadVisitReasons(reader.ctx.db));
}

export function presentAppointment(
  row: FhirAppointmentRow,
  origin: string,
  withReason: boolean,
): Appointment {
  const isOpen = row.status !== 'cancelled' && row.status !== 'completed' && row.status !== 'no_show';
  return {
    resourceType: 'Appointment',
    id: row.id,
    ...(isOpen
      ? {
          extension: [
            {
              url: virtualServiceExtension,
              extension: [
                {
                  url: 'channelType',
                  valueCoding: {
                    system: `${origin}/fhir/CodeSystem/virtual-service`,
                    code: 'telemedicina-video',
                    display: 'Telemedicina',
                  },
                },
                { url: 'addressUrl', valueUrl: `${origin}/visits/${row.id}` },
              ],
            },
          ],
        }
      : {}),
    status: appointmentStatuses[row.status],
    ...(row.status === 'cancelled' && row.cancellationReason !== null
      ? { cancelationReason: { text: row.cancellationReason } }
      : {}),
    serviceType: [{ text: 'Video visit' }],
    ...(withReason && row.reason !== null && row.reason !== '' ? { reasonCode: [{ text: row.reason }] } : {}),
    start: row.startsAt.toISOString(),
    end: row.endsAt.toISOString(),
    minutesDuration: Math.round((row.endsAt.getTime() - row.startsAt.getTime()) / 60_000),
    created: row.createdAt.toISOString(),
    participant: [
      { actor: ref('Patient', row.patientUserId, row.patientName), required: 'required', status: 'accepted' },
      {
        actor: ref('Practitioner', row.doctorUserId, row.doctorName),
        required: 'required',
        status: 'accepted',
      },
    ],
  };
}

const statusByFhir = new Map<string, FhirAppointmentRow['status'][]>();
for (const [own, fhir] of Object.entries(appointmentStatuses)) {
  statusByFhir.set(fhir, [...(statusByFhir.get(fhir) ?? []), own as FhirAppointmentRow['status']]);
}

export const appointmentHandler: ResourceHandler = {
  type: 'Appointment',
  documentation:
    'Video visits. The link to join is the R5 virtualService as a cross-version extension (channelType, addressUrl).',
  searchParams: [
    { name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' },
    { name: 'practitioner', type: 'reference', documentation: 'The doctor (Practitioner/<id>).' },
    { name: 'date', type: 'date', documentation: 'The start (eq, ge, gt, le, lt).' },
    {
      name: 'status',
      type: 'token',
      documentation: 'pending, booked, checked-in, arrived, fulfilled, cancelled, noshow.',
    },
  ],
  async read(reader, limit, id) {
    const row = isUuid(id) ? await findAppointmentRow(reader.ctx.db, id) : null;
    const grant = row === null ? null : await grantFor(reader, limit, row.patientUserId, 'administrative');
    if (row === null || grant === null) {
      return null;
    }
    return {
      resource: presentAppointment(row, reader.ctx.config.publicOrigin, await readsReason(reader, grant)),
      patient: grant,
    };
  },
  async search(reader, limit, { params, count, offset }) {
    const practitionerParam = single(params, 'practitioner');
    const doctorId = practitionerParam === null ? null : practitionerParam.replace(/^Practitioner\//, '');
    if (doctorId !== null && !isUuid(doctorId)) {
      throw badParam('practitioner', 'The search parameter practitioner takes Practitioner/<id> or <id>.');
    }
    const statusValues = anyOf(params, 'status');
    let statuses: FhirAppointmentRow['status'][] | null = null;
    if (statusValues !== null) {
      statuses = statusValues.flatMap((value) => {
        const own = statusByFhir.get(value);
        if (own === undefined) {
          throw badParam('status', `Unknown appointment status ${value}.`);
        }
        return own;
      });
    }
    const dates = dateBounds(params, 'date');
    const target = await searchPatient(reader, limit, single(params, 'patient'), 'administrative');
    if (target.kind === 'none') {
      return emptyResult;
    }
    const { actor } = reader.ctx;
    let patientId: string | null = null;
    let onlyDoctor: string | null = doctorId;
    if (target.kind === 'granted') {
      patientId = target.grant.patientId;
    } else if (actor.permissions.has('records.read') && !isPatientReader(actor)) {
      // Without a patient, a clinician's own appointments (each one's patient is theirs).
      if (doctorId !== null && doctorId !== actor.userId) {
        throw patientRequired();
      }
      onlyDoctor = actor.userId;
    } else {
      throw patientRequired();
    }
    const { rows, total } = await searchAppointmentRows(reader.ctx.db, {
      patientId,
      doctorId: onlyDoctor,
      statuses,
      dates,
      limit: count,
      offset,
    });
    // One access decision for the page's patients (the searched patient's is known already).
    const grants =
      target.kind === 'granted'
        ? new Map([[target.grant.patientId, target.grant]])
        : await grantsFor(
            reader,
            limit,
            rows.map((row) => row.patientUserId),
            'administrative',
          );
    const visible = rows.filter((row) => grants.has(row.patientUserId));
    let staffReadReasons: Promise<boolean> | null = null;
    const resources = [];
    for (const row of visible) {
      const grant = grants.get(row.patientUserId)!;
      let withReason = grant.chart?.access !== 'administrative';
      if (!withReason) {
        staffReadReasons ??= loadCanStaffReadVisitReasons(reader.ctx.db);
        withReason = await staffReadReasons;
      }
      resources.push(presentAppointment(row, reader.ctx.config.publicOrigin, withReason));
    }
    return {
      resources,
      total: total - (rows.length - visible.length),
      // In the order of the page (the audit rows follow it).
      patients:
        target.kind === 'granted'
          ? [target.grant]
          : [...new Set(visible.map((row) => row.patientUserId))].map((id) => grants.get(id)!),
    };
  },
};

/** Held visits: an appointment that started (in progress or completed) is an Encounter of the same id. */
const heldStatuses: readonly FhirAppointmentRow['status'][] = ['in_progress', 'completed'];

export function presentEncounter(row: FhirAppointmentRow): Encounter {
  return {
    resourceType: 'Encounter',
    id: row.id,
    status: row.status === 'in_progress' ? 'in-progress' : 'finished',
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'VR', display: 'virtual' },
    subject: ref('Patient', row.patientUserId, row.patientName),
    participant: [{ individual: ref('Practitioner', row.doctorUserId, row.doctorName) }],
    appointment: [ref('Appointment', row.id)],
    period: {
      start: (row.startedAt ?? row.startsAt).toISOString(),
      ...(row.endedAt === null ? {} : { end: row.endedAt.toISOString() }),
    },
  };
}

export const encounterHandler: ResourceHandler = {
  type: 'Encounter',
  documentation: 'Held video visits (an appointment that started), with the same id as the Appointment.',
  searchParams: [
    { name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' },
    { name: 'date', type: 'date', documentation: 'The scheduled start (eq, ge, gt, le, lt).' },
  ],
  async read(reader, limit, id) {
    const row = isUuid(id) ? await findAppointmentRow(reader.ctx.db, id) : null;
    if (row === null || !heldStatuses.includes(row.status)) {
      return null;
    }
    const grant = await grantFor(reader, limit, row.patientUserId, 'administrative');
    return grant === null ? null : { resource: presentEncounter(row), patient: grant };
  },
  async search(reader, limit, { params, count, offset }) {
    const dates = dateBounds(params, 'date');
    const target = await searchPatient(reader, limit, single(params, 'patient'), 'administrative');
    if (target.kind === 'missing') {
      throw patientRequired();
    }
    if (target.kind === 'none') {
      return emptyResult;
    }
    const { rows, total } = await searchAppointmentRows(reader.ctx.db, {
      patientId: target.grant.patientId,
      doctorId: null,
      statuses: heldStatuses,
      dates,
      limit: count,
      offset,
    });
    return { resources: rows.map(presentEncounter), total, patients: [target.grant] };
  },
};
