/**
 * The demo accounts' password, for browser journeys and system tests. It is the seed's
 * (`apps/server/src/db/seed.ts`, `demoPassword`), written again here rather than imported so that a
 * test process does not load the server's database code; keep the two equal.
 */
export const demoPassword = 'Telemedicina2026!';
