import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

/** `@telemedicina/shared/<area>` resolves to the shared package's source (there is no barrel). */
const sharedDirectory = fileURLToPath(new URL('../../packages/shared/src/', import.meta.url));
const sharedAlias = [{ find: /^@telemedicina\/shared\/([\w-]+)$/, replacement: `${sharedDirectory}$1.ts` }];

export default defineProject({
  plugins: [react()],
  resolve: { alias: sharedAlias },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // A screen test renders, loads lazy chunks and may talk to a local server: 5 s (vitest's
    // default) is near what one takes on a busy two-core machine; its waits allow 20 s.
    testTimeout: 30_000,
  },
});
