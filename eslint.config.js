// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import serverModules from './scripts/eslint-rules/server-module-layers.js';

/**
 * Server module layers, bottom first: a module under apps/server/src/modules/ imports only modules
 * of lower layers (lib/, db/, http/ and the shared package are below them all), so modules never
 * import each other in a loop. A new module takes a place here; to call a higher module, move the
 * shared piece down or let the lower module take a callback.
 */
export const serverModuleLayers = [
  ['context'], // modules/context.ts: the service context every module receives
  ['files', 'audit'], // stored files; the audit trail writer
  ['settings'], // clinic settings (their changes are audited)
  ['email'], // rendering and sending emails (reads the clinic's name and links)
  ['identity', 'notifications', 'outbox', 'search', 'diagnoses', 'health', 'client-config', 'dashboard'],
  ['audit-log', 'specialties', 'availability'],
  ['doctors', 'waitlist'],
  ['questionnaires'], // intake questionnaires, their versions and the forms due at booking
  ['appointments', 'records'], // booking (offers freed slots to the waitlist); the chart and its documents
  ['reminders', 'reception', 'prescriptions', 'visits', 'intake'],
  ['notes', 'consents'],
  ['export'],
  ['fhir'], // the FHIR R4 read API: maps the record through the modules' own repositories and policies
  ['smart'], // SMART on FHIR sign-in: the OAuth 2 / OpenID Connect server whose tokens /fhir/R4 takes
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      '**/drizzle/meta/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'it', property: 'only', message: 'No focused tests.' },
        { object: 'describe', property: 'only', message: 'No focused tests.' },
        { object: 'test', property: 'only', message: 'No focused tests.' },
        { object: 'it', property: 'skip', message: 'No skipped tests.' },
        { object: 'describe', property: 'skip', message: 'No skipped tests.' },
        { object: 'test', property: 'skip', message: 'No skipped tests.' },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    plugins: { 'server-modules': serverModules },
    rules: {
      'server-modules/server-module-layers': [
        'error',
        { modulesDir: 'apps/server/src/modules', layers: serverModuleLayers },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  // Features never import each other (only app/ composes them); shared pieces live in components/ and lib/.
  ...[
    ['apps/web/src/features/*/*.{ts,tsx}', '^\\.\\./(?!\\.\\./)'],
    ['apps/web/src/features/*/*/*.{ts,tsx}', '^\\.\\./\\.\\./(?!\\.\\./)'],
    ['apps/web/src/features/*/*/*/*.{ts,tsx}', '^\\.\\./\\.\\./\\.\\./(?!\\.\\./)'],
  ].map(([files, siblingFeature]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: siblingFeature, message: 'Features must not import each other.' },
            {
              group: ['**/features/**', '**/app/**'],
              message: 'Features must not import each other or the app.',
            },
          ],
        },
      ],
    },
  })),
  {
    // Shared components and lib never reach into features or the app.
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/app/**'],
              message: 'Shared code must not depend on features or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    // One clock: every date and time people read is formatted by src/lib/clock.ts in the viewer's
    // account zone. Formatting anywhere else (the device's zone by default) brought back the
    // "16:00 here, 23:00 there" bugs, so components may not do it themselves.
    files: ['apps/web/src/{app,components,features}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']",
          message:
            "Format dates and times with src/lib/clock (useClock): the viewer's zone, not the device's.",
        },
        {
          selector: "CallExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']",
          message:
            "Format dates and times with src/lib/clock (useClock): the viewer's zone, not the device's.",
        },
        {
          selector: "ImportSpecifier[imported.name='dateTimeFormat']",
          message:
            "Format dates and times with src/lib/clock (useClock): the viewer's zone, not the device's.",
        },
        {
          selector:
            'CallExpression[callee.property.name=/^(toLocaleString|toLocaleDateString|toLocaleTimeString|getHours|getMinutes|getDate|getDay|getMonth|getFullYear|getTimezoneOffset)$/]',
          message:
            "Dates and times go through src/lib/clock in the viewer's zone; these read the device's clock (numbers: lib/format).",
        },
        {
          selector: "CallExpression[callee.name='dayjs']",
          message:
            "Format dates and times with src/lib/clock (useClock): the viewer's zone, not the device's.",
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'bench/**/*.ts', 'system/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
