import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Linter, type ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const modulesDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(modulesDir, '../../../..');

async function loadLayers(): Promise<string[][]> {
  const url = pathToFileURL(join(repoRoot, 'eslint.config.js')).href;
  return ((await import(url)) as { serverModuleLayers: string[][] }).serverModuleLayers;
}

async function loadPlugin(): Promise<ESLint.Plugin> {
  const url = pathToFileURL(join(repoRoot, 'scripts/eslint-rules/server-module-layers.js')).href;
  return ((await import(url)) as { default: ESLint.Plugin }).default;
}

/** The rule's reports for `code` written in modules/<from>/example.ts. */
async function lint(from: string, code: string): Promise<string[]> {
  const linter = new Linter({ cwd: repoRoot });
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      plugins: { 'server-modules': await loadPlugin() },
      rules: {
        'server-modules/server-module-layers': [
          'error',
          { modulesDir: 'apps/server/src/modules', layers: await loadLayers() },
        ],
      },
    },
  ];
  return linter
    .verify(code, config, { filename: join(modulesDir, from, 'example.ts') })
    .map((message) => message.message);
}

describe('server module layers (eslint.config.js)', () => {
  it('give every module folder, and context.ts, exactly one layer', async () => {
    const listed = (await loadLayers()).flat();
    const folders = readdirSync(modulesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...folders, 'context'].sort());
  });

  it('fail an import from a higher layer, which is how a loop would start', async () => {
    const reports = await lint('audit', "import { findUserById } from '../identity/users.repository.js';");
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('modules/audit (layer 1) must not import modules/identity (layer 4)');
    expect(
      await lint('appointments', "export { offerFreedSlot } from '../waitlist/waitlist.service.js';"),
    ).toEqual([]);
    expect(
      await lint('waitlist', "export * from '../appointments/appointments.repository.js';"),
    ).toHaveLength(1);
  });

  it('fail an import between two modules of the same layer', async () => {
    expect(
      await lint('records', "import { bookAppointment } from '../appointments/appointments.service.js';"),
    ).toHaveLength(1);
  });

  it('allow imports inside a module, from lower layers and from outside modules/', async () => {
    expect(
      await lint(
        'notes',
        [
          "import { loadNote } from './note-loading.js';",
          "import { requireActor } from '../context.js';",
          "import { sendEmail } from '../email/email.service.js';",
          "import { isUuid } from '../../lib/uuid.js';",
          "import { z } from 'zod';",
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('fail a module that has no layer yet', async () => {
    const reports = await lint('newcomer', "import { sendEmail } from '../email/email.service.js';");
    expect(reports[0]).toContain('modules/newcomer has no layer');
  });
});
