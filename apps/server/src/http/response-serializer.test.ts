import {
  clientConfigResponseSchema,
  errorResponseSchema,
  healthResponseSchema,
} from '@telemedicina/shared/api';
import { meResponseSchema } from '@telemedicina/shared/auth';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compiledResponseSerializerCompiler,
  isDirectionless,
  responseSerializerCompiler,
} from './response-serializer.js';

const compile = (schema: z.ZodType) => responseSerializerCompiler({ schema, method: 'GET', url: '/test' });
const compileFast = (schema: z.ZodType) =>
  compiledResponseSerializerCompiler({ schema, method: 'GET', url: '/test' });
const compileWithProvider = (schema: z.ZodType) =>
  serializerCompiler({ schema, method: 'GET', url: '/test' });

const health = {
  status: 'ok',
  version: '1.2.3',
  uptimeSeconds: 12.5,
  database: { kind: 'pglite', roundTripMs: 0.25, checkedAt: '2026-03-01T08:00:00.000Z' },
};

describe('isDirectionless', () => {
  it.each([
    ['health', healthResponseSchema],
    ['error', errorResponseSchema],
    ['client config', clientConfigResponseSchema],
    ['me', meResponseSchema],
  ])('holds for the %s answer', (_name, schema) => {
    expect(isDirectionless(schema)).toBe(true);
  });

  it.each([
    [
      'a codec',
      z.object({
        at: z.codec(z.iso.datetime(), z.date(), {
          decode: (s) => new Date(s),
          encode: (d) => d.toISOString(),
        }),
      }),
    ],
    ['a transform', z.object({ n: z.string().transform((value) => value.length) })],
    ['a default', z.object({ n: z.number().default(1) })],
    ['a nested pipe', z.object({ list: z.array(z.object({ n: z.string().pipe(z.string()) })) })],
    ['a lazy schema', z.object({ next: z.lazy(() => z.string()) })],
  ])('does not hold for a schema with %s', (_name, schema) => {
    expect(isDirectionless(schema)).toBe(false);
  });
});

describe('responseSerializerCompiler', () => {
  it('answers exactly what the zod provider answers, unknown keys stripped', () => {
    const withExtra = { ...health, secret: 'x', database: { ...health.database, internal: 1 } };
    expect(compile(healthResponseSchema)(withExtra)).toBe(
      compileWithProvider(healthResponseSchema)(withExtra),
    );
    expect(JSON.parse(compile(healthResponseSchema)(withExtra))).toEqual(health);
  });

  it('refuses an answer that does not match its schema, like the provider', () => {
    const wrong = { ...health, database: { ...health.database, checkedAt: 'yesterday' } };
    expect(() => compile(healthResponseSchema)(wrong)).toThrow("Response doesn't match the schema");
    expect(() => compileWithProvider(healthResponseSchema)(wrong)).toThrow(
      "Response doesn't match the schema",
    );
  });

  it('still encodes schemas that depend on the direction (codecs)', () => {
    const schema = z.object({
      at: z.codec(z.iso.datetime(), z.date(), {
        decode: (value) => new Date(value),
        encode: (date) => date.toISOString(),
      }),
    });
    const at = new Date('2026-03-01T08:00:00.000Z');
    expect(compile(schema)({ at })).toBe('{"at":"2026-03-01T08:00:00.000Z"}');
  });
});

describe('compiledResponseSerializerCompiler (hot routes)', () => {
  it('writes the same JSON as the checked serializer, unknown keys dropped', () => {
    const withExtra = { ...health, secret: 'x', database: { ...health.database, internal: 1 } };
    expect(compileFast(healthResponseSchema)(withExtra)).toBe(compile(healthResponseSchema)(health));
    const error = {
      error: { code: 'SERVICE_UNAVAILABLE', message: 'Down.', details: { database: { kind: 'pglite' } } },
    };
    expect(compileFast(errorResponseSchema)(error)).toBe(compile(errorResponseSchema)(error));
  });

  it('refuses an answer missing a required field', () => {
    const { version: _version, ...withoutVersion } = health;
    expect(() => compileFast(healthResponseSchema)(withoutVersion)).toThrow(/version/);
  });

  it('leaves schemas that depend on the direction to the checked serializer', () => {
    const schema = z.object({
      at: z.codec(z.iso.datetime(), z.date(), {
        decode: (value) => new Date(value),
        encode: (date) => date.toISOString(),
      }),
    });
    expect(compileFast(schema)({ at: new Date('2026-03-01T08:00:00.000Z') })).toBe(
      '{"at":"2026-03-01T08:00:00.000Z"}',
    );
    expect(() => compileFast(schema)({ at: 'not a date' })).toThrow("Response doesn't match the schema");
  });
});
