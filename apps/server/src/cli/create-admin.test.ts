import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, send, signIn, testPassword } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-context.js';
import { CreateAdminError, createAdmin } from './create-admin.js';

let context: TestContext;

beforeAll(async () => {
  context = await createTestContext();
});

afterAll(async () => {
  await context?.close();
});

describe('createAdmin', () => {
  it('creates an active, verified administrator who can sign in, and records user.created', async () => {
    const created = await createAdmin(context.database.client, context.app.services.passwords, {
      email: ' Jefa@Clinica.example ',
      name: 'Jefa Clínica',
      password: testPassword,
      language: 'en',
      timeZone: 'Europe/Madrid',
    });
    expect(created.email).toBe('jefa@clinica.example');
    const client = await signIn(context.app, {
      email: created.email,
      password: testPassword,
      totpSecret: null,
    });
    expect(client.me.roles.map((role) => role.key)).toEqual(['admin']);
    expect(client.me.user).toMatchObject({ language: 'en', timeZone: 'Europe/Madrid', emailVerified: true });
    expect((await send(context.app, 'GET', '/api/v1/outbox', { session: client.token })).statusCode).toBe(
      200,
    );
    expect((await auditEventsOf(context.app, 'user.created')).at(-1)).toMatchObject({
      targetId: created.id,
      details: { via: 'cli' },
    });
  });

  it.each([
    [{ email: 'not-an-email', name: 'Nombre Válido', password: testPassword }, /not an email/],
    [{ email: 'x@example.test', name: 'A', password: testPassword }, /name/],
    [
      { email: 'x@example.test', name: 'Ana \u202EzeréP', password: testPassword },
      /invisible text-direction characters/,
    ],
    [
      { email: 'x@example.test', name: 'Nombre Válido', password: 'short' },
      /too weak: use at least 10 characters/,
    ],
    [
      { email: 'x@example.test', name: 'Nombre Válido', password: testPassword, timeZone: 'Nowhere/City' },
      /IANA/,
    ],
  ])('refuses bad input %#', async (input, message) => {
    await expect(createAdmin(context.database.client, context.app.services.passwords, input)).rejects.toThrow(
      message,
    );
  });

  it('refuses an email that already has an account', async () => {
    const input = { email: 'dup@example.test', name: 'Admin Doble', password: testPassword };
    await createAdmin(context.database.client, context.app.services.passwords, input);
    await expect(
      createAdmin(context.database.client, context.app.services.passwords, input),
    ).rejects.toBeInstanceOf(CreateAdminError);
  });
});

describe('npm run create-admin', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-create-admin-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  function run(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number | null; output: string }> {
    const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
    return new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--conditions=@telemedicina/source',
          '--import',
          'tsx',
          'apps/server/src/cli/create-admin-main.ts',
          ...args,
        ],
        {
          cwd: repositoryRoot,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });
  }

  it('creates the admin on the configured (embedded) database with ADMIN_PASSWORD', async () => {
    const result = await run(['--email', 'primera@clinica.example', '--name', 'Primera Admin'], {
      ADMIN_PASSWORD: testPassword,
    });
    expect(result.output).toContain('Administrator primera@clinica.example created');
    expect(result.code).toBe(0);
    const again = await run(['--email', 'primera@clinica.example', '--name', 'Primera Admin'], {
      ADMIN_PASSWORD: testPassword,
    });
    expect(again.code).toBe(1);
    expect(again.output).toContain('already exists');
  }, 240_000);

  it('explains its usage and refuses to run without a password and a terminal', async () => {
    const usage = await run([], {});
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('Usage: npm run create-admin');
    const noPassword = await run(['--email', 'a@b.example', '--name', 'Alguien Más'], {});
    expect(noPassword.code).toBe(2);
    expect(noPassword.output).toContain('ADMIN_PASSWORD');
  }, 180_000);
});
