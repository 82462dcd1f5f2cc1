import type { CapabilityStatement } from '@medplum/fhirtypes';
import { auditEventHandler, consentHandler } from './access.resources.js';
import { appointmentHandler, encounterHandler } from './appointment.resources.js';
import {
  allergyIntoleranceHandler,
  conditionHandler,
  medicationStatementHandler,
} from './chart-list.resources.js';
import { medicationRequestHandler, observationHandler } from './clinical.resources.js';
import { binaryHandler, documentReferenceHandler } from './document.resources.js';
import type { ResourceHandler } from './fhir-resource.js';
import { organizationHandler, patientHandler, practitionerHandler } from './people.resources.js';
import { practitionerRoleHandler, scheduleHandler, slotHandler } from './scheduling.resources.js';

/** Every resource type /fhir/R4 serves: the routes and the CapabilityStatement are made from this. */
export const resourceHandlers: readonly ResourceHandler[] = [
  patientHandler,
  practitionerHandler,
  practitionerRoleHandler,
  organizationHandler,
  scheduleHandler,
  slotHandler,
  appointmentHandler,
  encounterHandler,
  allergyIntoleranceHandler,
  conditionHandler,
  medicationStatementHandler,
  observationHandler,
  medicationRequestHandler,
  documentReferenceHandler,
  binaryHandler,
  auditEventHandler,
  consentHandler,
];

/** Search parameters every search takes besides a type's own. */
export const commonSearchParams = ['_count', '_cursor', '_format'] as const;

/** The SMART endpoints the authorization server (modules/smart) serves, under the public origin. */
export function smartEndpoints(origin: string) {
  return {
    authorize: `${origin}/oauth/auth`,
    token: `${origin}/oauth/token`,
    revoke: `${origin}/oauth/token/revocation`,
    register: `${origin}/oauth/reg`,
  };
}

/** `GET /fhir/R4/metadata`: what this server does, generated from the table above. */
export function capabilityStatement(origin: string, version: string, date: string): CapabilityStatement {
  const endpoints = smartEndpoints(origin);
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date,
    kind: 'instance',
    instantiates: ['http://hl7.org/fhir/uv/ipa/CapabilityStatement/ipa-server'],
    software: { name: 'Telemedicina', version },
    implementation: { description: 'Telemedicina FHIR R4 API (read-only)', url: `${origin}/fhir/R4` },
    fhirVersion: '4.0.1',
    format: ['json', 'application/fhir+json'],
    rest: [
      {
        mode: 'server',
        security: {
          cors: true,
          service: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                  code: 'SMART-on-FHIR',
                  display: 'SMART-on-FHIR',
                },
              ],
              text: 'OAuth2 using SMART-on-FHIR profile (see http://docs.smarthealthit.org)',
            },
          ],
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [
                { url: 'authorize', valueUri: endpoints.authorize },
                { url: 'token', valueUri: endpoints.token },
                { url: 'revoke', valueUri: endpoints.revoke },
                { url: 'register', valueUri: endpoints.register },
              ],
            },
          ],
        },
        resource: resourceHandlers.map((handler) => ({
          type: handler.type,
          documentation: handler.documentation,
          ...(handler.supportedProfiles === undefined
            ? {}
            : { supportedProfile: [...handler.supportedProfiles] }),
          interaction: [
            { code: 'read' as const },
            ...(handler.search === undefined ? [] : [{ code: 'search-type' as const }]),
          ],
          ...(handler.search === undefined || handler.searchParams === null
            ? {}
            : {
                searchParam: handler.searchParams.map((param) => ({
                  name: param.name,
                  type: param.type,
                  documentation: param.documentation,
                })),
              }),
        })),
      },
    ],
  };
}
