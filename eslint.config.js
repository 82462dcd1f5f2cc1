// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'bench/**/*.ts', 'system/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
