import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { openDatabase } from '../db/client.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { CreateAdminError, createAdmin } from './create-admin.js';
import { readHiddenLine } from './prompt.js';

const usage = `Usage: npm run create-admin -- --email admin@clinic.org --name "Ana Pérez" [--language es|en] [--time-zone Europe/Madrid]

Creates an administrator on the configured database (DATABASE_URL, or the
embedded one in DATA_DIR — stop the server first). The password comes from
ADMIN_PASSWORD or is asked for (hidden) when run in a terminal.`;

/** `npm run create-admin`: the first administrator of an installation without demo data. */
async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        language: { type: 'string' },
        'time-zone': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  if (args.help === true || args.email === undefined || args.name === undefined) {
    console.error(usage);
    return args.help === true ? 0 : 2;
  }

  let password = process.env.ADMIN_PASSWORD;
  if (password === undefined || password === '') {
    if (!process.stdin.isTTY) {
      console.error('Set ADMIN_PASSWORD, or run this in a terminal to type the password.');
      return 2;
    }
    password = await readHiddenLine('Password for the new administrator: ');
    const again = await readHiddenLine('Type it again: ');
    if (again !== password) {
      console.error('The two passwords differ.');
      return 1;
    }
  }

  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    return 1;
  }
  const db = await openDatabase(
    config.databaseUrl === null
      ? { kind: 'pglite', dataDir: config.dataDir }
      : { kind: 'postgres', url: config.databaseUrl },
  );
  try {
    await db.migrate();
    const created = await createAdmin(db, createPasswordHasher(config.passwordHashing), {
      email: args.email,
      name: args.name,
      password,
      ...(args.language === undefined ? {} : { language: args.language }),
      ...(args['time-zone'] === undefined ? {} : { timeZone: args['time-zone'] }),
    });
    console.log(`Administrator ${created.email} created. Sign in at ${config.publicOrigin}/`);
    return 0;
  } catch (error) {
    if (error instanceof CreateAdminError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
