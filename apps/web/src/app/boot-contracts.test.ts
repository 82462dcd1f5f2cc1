import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The signed-in boot builds every zod schema of each shared module it loads, so the contracts it
 * needs live in small modules (`common`, `clinic-settings`, `search`, `appointment`, `visit-timing`)
 * and the areas' modules — every form's schemas — load with their areas (docs/PERFORMANCE.md).
 * This walks the static imports of the boot (the entry, the application, the admin frame and the
 * `/admin` home: the steps of `boot-hints.json`) through the shared package and fails when one of
 * them reaches an area's contracts again.
 */

// `import.meta.dirname`: under jsdom, `URL` is jsdom's, which `fileURLToPath` does not take.
const webSource = path.resolve(import.meta.dirname, '..');
const sharedSource = path.resolve(import.meta.dirname, '../../../../packages/shared/src') + path.sep;

const bootRoots = [
  'main.tsx',
  'app/start-app.tsx',
  'app/AdminShell.tsx',
  'app/HomeRoute.tsx',
  'features/home/index.ts',
];

/** Shared modules holding an area's request and form schemas: not for the boot. */
const areaModules = [
  'auth',
  'admin',
  'booking',
  'doctors',
  'visits',
  'records',
  'notes',
  'prescriptions',
  'documents',
  'export',
];

/** `import { a, type B } from 'x'` and `export { a } from 'x'`, without type-only ones: [names, specifier]. */
function staticImports(source: string): { names: string[]; specifier: string }[] {
  const found: { names: string[]; specifier: string }[] = [];
  const pattern = /^(?:import|export)\s+(?!type\s)([^;]*?)\s*from\s+'([^']+)'/gmu;
  for (const match of source.matchAll(pattern)) {
    const clause = match[1] ?? '';
    const braces = /\{([^}]*)\}/u.exec(clause)?.[1] ?? '';
    const names = braces
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('type '))
      .map((part) => part.split(/\s+as\s+/u)[0]!.trim());
    found.push({ names: clause.startsWith('*') ? ['*'] : names, specifier: match[2]! });
  }
  // Side-effect imports (`import './x.css'`).
  for (const match of source.matchAll(/^import\s+'([^']+)'/gmu)) {
    found.push({ names: [], specifier: match[1]! });
  }
  return found;
}

function resolveRelative(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/u, ''));
  for (const candidate of [
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (existsSync(candidate)) {
      return candidate;
    }
  }
  return null;
}

/** Every source file the boot loads statically, web and shared. */
function bootGraph(): Set<string> {
  const seen = new Set<string>();
  const stack = bootRoots.map((root) => path.join(webSource, root));
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    for (const { names, specifier } of staticImports(readFileSync(file, 'utf8'))) {
      const area = /^@telemedicina\/shared\/([\w-]+)$/u.exec(specifier)?.[1];
      if (area !== undefined) {
        // A subpath import loads its area's module when it takes any value from it.
        if (names.length > 0) {
          stack.push(path.join(sharedSource, `${area}.ts`));
        }
      } else if (specifier.startsWith('.') && !/\.(css|svg|png|json)$/u.test(specifier)) {
        const resolved = resolveRelative(file, specifier);
        if (resolved) {
          stack.push(resolved);
        }
      }
    }
  }
  return seen;
}

const moduleName = (file: string) => path.basename(file, '.ts');

describe('the signed-in boot', () => {
  const graph = bootGraph();
  const shared = [...graph].filter((file) => file.startsWith(sharedSource)).map(moduleName);

  it('is walked through its own code and the shared contracts it uses', () => {
    // The walk found the boot (a broken walk would find nothing to object to).
    expect(graph.has(path.join(webSource, 'features/home/upcoming.ts'))).toBe(true);
    expect(graph.has(path.join(webSource, 'lib/public-config.ts'))).toBe(true);
    expect(graph.size).toBeGreaterThan(60);
    expect(shared).toEqual(
      expect.arrayContaining(['common', 'clinic-settings', 'appointment', 'visit-timing']),
    );
  });

  it("loads no area's request and form schemas", () => {
    expect(shared.filter((name) => areaModules.includes(name)).sort()).toEqual([]);
  });
});
