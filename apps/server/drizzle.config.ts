import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate -w @telemedicina/server` writes SQL migrations from the schema; no database needed. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  casing: 'snake_case',
});
