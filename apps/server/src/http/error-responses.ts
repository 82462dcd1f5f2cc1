import { errorResponseSchema } from '@telemedicina/shared/api';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

/**
 * The `response` entries of a route's failure statuses, all in the one error shape, for the
 * OpenAPI document and the response check: `response: { 200: okSchema, ...errorResponses(400, 404) }`.
 */
export function errorResponses<const S extends ErrorStatus>(
  ...statuses: readonly S[]
): Record<S, typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    S,
    typeof errorResponseSchema
  >;
}
