import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { readCookie, sessionCookieName } from '../../http/cookies.js';
import { toErrorAnswer } from '../../http/error-handler.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices, AuditEventInput } from '../context.js';
import { recordAuditEvents } from '../audit/audit.service.js';
import type { FileStorage } from '../files/file-storage.js';
import { accessDetails } from '../records/chart-audit.js';
import type { BearerResolver } from './fhir-access.js';
import { authenticateFhir } from './fhir-auth.js';
import { FhirError, notFoundError, operationOutcome, type FhirErrorStatus } from './fhir-outcome.js';
import { limitFor, type FhirReader, type PatientGrant } from './fhir-reader.js';
import type { ResourceHandler } from './fhir-resource.js';
import { capabilityStatement, commonSearchParams, resourceHandlers } from './fhir-table.js';
import { parseScopes, resourceSatisfies, searchSatisfies, type ScopeInteraction } from './smart-scopes.js';

export const fhirBasePath = '/fhir/R4';
export const fhirContentType = 'application/fhir+json; charset=utf-8';
const defaultCount = 20;
const maxCount = 100;

export interface FhirRoutesOptions {
  services: AppServices;
  storage: FileStorage;
  /** The SMART module's resolver of Bearer tokens. */
  resolveBearer: BearerResolver;
  version: string;
}

/** Described by its CapabilityStatement (GET /fhir/R4/metadata), not the /api OpenAPI document. */
const hidden = { schema: { hide: true } };
const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;
const countSchema = z.coerce.number().int().min(0).max(10_000);
const cursorSchema = z.object({ o: z.number().int().min(0).max(1_000_000) });

const jsonFormats = new Set(['json', 'application/json', 'application/fhir+json']);

/**
 * The FHIR R4 read API under /fhir/R4, outside /api/v1: its own authentication (a SMART Bearer
 * token, or the app's own session cookie from the app's own origin), its own error shape
 * (OperationOutcome) and CORS for SMART browser apps (any origin, never with credentials).
 * Every route of this plugin authenticates in its preHandler except /metadata and preflights.
 */
export const fhirRoutes: FastifyPluginAsync<FhirRoutesOptions> = (app, options) => {
  const { services, storage, resolveBearer, version } = options;
  const origin = services.config.publicOrigin;
  const base = `${origin}${fhirBasePath}`;
  const sameOrigins = new Set([origin, ...services.config.appOrigins]);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'Location, Content-Location, WWW-Authenticate');
    reply.header('vary', 'Origin');
    checkFormat(request);
  });
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const status = fhirStatusOf(error);
    if (status >= 500) {
      request.log.error({ err: error }, 'FHIR request failed');
    }
    if (status === 401) {
      const presented = request.headers.authorization !== undefined;
      reply.header('www-authenticate', `Bearer realm="${base}"${presented ? ', error="invalid_token"' : ''}`);
    }
    const message =
      error instanceof FhirError || status < 500 ? error.message : 'The server could not answer.';
    const expression = error instanceof FhirError ? error.expression : undefined;
    void reply
      .code(status)
      .header('content-type', fhirContentType)
      .send(JSON.stringify(operationOutcome(status, message, expression)));
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .header('content-type', fhirContentType)
      .send(
        JSON.stringify(
          operationOutcome(404, `No such FHIR interaction: ${request.method} ${request.url.split('?')[0]}.`),
        ),
      );
  });

  // Preflight of SMART browser apps: any origin, the Authorization header, no credentials.
  app.options('/*', hidden, (_request, reply) => {
    void reply
      .code(204)
      .header('access-control-allow-methods', 'GET, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Accept, Content-Type')
      .header('access-control-max-age', '600')
      .send();
  });

  const startedAt = services.now().toISOString();
  app.get('/metadata', hidden, async (_request, reply) => {
    return sendResource(reply, capabilityStatement(origin, version, startedAt));
  });

  /** The reader behind the request, checked by the scopes for this interaction. */
  const readerFor = async (request: FastifyRequest): Promise<FhirReader> => {
    const requestOrigin = request.headers.origin;
    const isSameOrigin = requestOrigin === undefined || sameOrigins.has(requestOrigin);
    const { actor, access } = await authenticateFhir(services, resolveBearer, {
      authorization: request.headers.authorization,
      // Cookies never count cross-origin: a page elsewhere cannot read as the signed-in person.
      sessionToken: isSameOrigin ? readCookie(request.headers.cookie, sessionCookieName) : null,
    });
    request.actor = actor;
    return {
      ctx: { ...contextFor(services, request), actor },
      access,
      scopes: parseScopes(access.scopes),
      storage,
    };
  };

  const audit = async (
    reader: FhirReader,
    handler: ResourceHandler,
    interaction: ScopeInteraction,
    patients: readonly PatientGrant[],
    resourceIds: readonly string[],
  ): Promise<void> => {
    // One row per patient (the patient's access log shows each), all in one INSERT.
    const seen = new Set<string>();
    const events: AuditEventInput[] = [];
    for (const grant of patients) {
      if (seen.has(grant.patientId)) {
        continue;
      }
      seen.add(grant.patientId);
      events.push({
        action: 'record.viewed',
        targetType: 'patient',
        targetId: grant.patientId,
        details: {
          section: 'fhir',
          resourceType: handler.type,
          interaction,
          resourceIds: resourceIds.slice(0, 100),
          client: reader.access.client,
          ...(grant.chart === null ? { access: 'prescriber', emergency: false } : accessDetails(grant.chart)),
        },
      });
    }
    await recordAuditEvents(
      reader.ctx.db,
      { now: reader.ctx.now, actorUserId: reader.ctx.actor.userId, request: reader.ctx.request },
      events,
    );
  };

  for (const handler of resourceHandlers) {
    app.get<{ Params: { id: string } }>(`/${handler.type}/:id`, hidden, async (request, reply) => {
      const reader = await readerFor(request);
      const limit = limitFor(reader, handler.type, 'read');
      const { id } = request.params;
      const found = idPattern.test(id) ? await handler.read(reader, limit, id) : null;
      if (found === null) {
        throw notFoundError(handler.type, id);
      }
      if (
        !resourceSatisfies(limit.restrictions, (name) => handler.tokenValues?.(found.resource, name) ?? [])
      ) {
        throw new FhirError(403, `The granted scopes do not cover this ${handler.type}.`);
      }
      await audit(reader, handler, 'read', found.patient === null ? [] : [found.patient], [id]);
      if (found.raw !== undefined && !wantsFhirJson(request)) {
        return reply.code(200).header('content-type', found.raw.contentType).send(found.raw.bytes);
      }
      return sendResource(reply, found.resource);
    });
    const search = handler.search;
    if (search === undefined) {
      continue;
    }
    app.get(`/${handler.type}`, hidden, async (request, reply) => {
      const reader = await readerFor(request);
      const limit = limitFor(reader, handler.type, 'search');
      const url = new URL(request.url, 'http://fhir.invalid');
      const known = new Set<string>([
        ...commonSearchParams,
        ...(handler.searchParams ?? []).map((param) => param.name),
      ]);
      const params = new Map<string, string[]>();
      for (const [name, value] of url.searchParams) {
        if (!known.has(name)) {
          throw new FhirError(400, `${handler.type} has no search parameter ${name}.`, name);
        }
        params.set(name, [...(params.get(name) ?? []), value]);
      }
      const count = Math.min(parseCount(params.get('_count')), maxCount);
      const offset = parseCursor(params.get('_cursor'));
      for (const name of commonSearchParams) {
        params.delete(name);
      }
      if (!searchSatisfies(limit.restrictions, params)) {
        throw new FhirError(
          403,
          `The granted scopes allow this ${handler.type} search only with their restriction.`,
        );
      }
      const result = await search(reader, limit, { params, count, offset });
      await audit(
        reader,
        handler,
        'search',
        result.patients,
        result.resources.map((resource) => resource.id!),
      );
      const pageUrl = (at: number) => {
        const query = new URLSearchParams();
        for (const [name, values] of params) {
          for (const value of values) {
            query.append(name, value);
          }
        }
        query.set('_count', String(count));
        if (at > 0) {
          query.set('_cursor', encodeCursor(at));
        }
        return `${base}/${handler.type}?${query.toString()}`;
      };
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'searchset',
        total: result.total,
        link: [
          { relation: 'self', url: pageUrl(offset) },
          ...(count > 0 && offset + count < result.total
            ? [{ relation: 'next', url: pageUrl(offset + count) }]
            : []),
        ],
        entry: result.resources.map((resource) => ({
          fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
          resource,
          search: { mode: 'match' as const },
        })),
      };
      return sendResource(reply, bundle);
    });
  }
  return Promise.resolve();
};

function sendResource(reply: FastifyReply, resource: Resource): FastifyReply {
  return reply.code(200).header('content-type', fhirContentType).send(JSON.stringify(resource));
}

/** JSON only: `_format` xml (or an Accept of XML alone) → 406. */
function checkFormat(request: FastifyRequest): void {
  const format = new URL(request.url, 'http://fhir.invalid').searchParams.get('_format');
  if (format !== null && !jsonFormats.has(format.toLowerCase())) {
    throw new FhirError(
      406,
      'This server answers JSON only (_format=json or application/fhir+json).',
      '_format',
    );
  }
  const accept = request.headers.accept?.toLowerCase() ?? '';
  if (accept.includes('xml') && !/json|\*\/\*|application\/\*|pdf|image/.test(accept)) {
    throw new FhirError(406, 'This server answers JSON only (Accept: application/fhir+json).');
  }
}

/** A Binary read wants the resource when the client asks for FHIR JSON (Accept or _format). */
function wantsFhirJson(request: FastifyRequest): boolean {
  const format = new URL(request.url, 'http://fhir.invalid').searchParams.get('_format');
  if (format !== null) {
    return true;
  }
  const accept = request.headers.accept?.toLowerCase() ?? '';
  return accept.includes('application/fhir+json') || accept.includes('application/json');
}

function parseCount(values: readonly string[] | undefined): number {
  if (values === undefined) {
    return defaultCount;
  }
  const parsed = values.length === 1 ? countSchema.safeParse(values[0]) : null;
  if (parsed?.success !== true) {
    throw new FhirError(400, '_count takes one whole number (at most 100 are returned).', '_count');
  }
  return parsed.data;
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function parseCursor(values: readonly string[] | undefined): number {
  if (values === undefined) {
    return 0;
  }
  try {
    const parsed = cursorSchema.safeParse(
      JSON.parse(Buffer.from(values[0] ?? '', 'base64url').toString('utf8')),
    );
    if (values.length === 1 && parsed.success) {
      return parsed.data.o;
    }
  } catch {
    // Not a cursor this server made.
  }
  throw new FhirError(400, '_cursor is not one this server gave out (follow the next link).', '_cursor');
}

/** The FHIR status of any error: ours as they are, the app's by their status, the rest 500. */
function fhirStatusOf(error: FastifyError | Error): FhirErrorStatus {
  if (error instanceof FhirError) {
    return error.statusCode;
  }
  const status = toErrorAnswer(error).statusCode;
  const known: readonly FhirErrorStatus[] = [400, 401, 403, 404, 406, 422, 429, 500, 503];
  return (known as readonly number[]).includes(status)
    ? (status as FhirErrorStatus)
    : status < 500
      ? 400
      : 500;
}
