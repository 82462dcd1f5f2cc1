import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql, type SQL } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { Database, DatabaseClient } from '../db/client.js';
import { migrationsFolder } from '../paths.js';

/**
 * A logical dump that reads and writes the same way on PGlite and PostgreSQL:
 * every table of the `public` schema as NDJSON, one `row_to_json` text per
 * row, never parsed in JavaScript (numbers, bigints, timestamps with their
 * microseconds and arrays keep their exact PostgreSQL text), and loaded back
 * with `json_populate_recordset`, which converts each field to the column's type.
 */

/** One table as the catalogue describes it. */
export interface TableInfo {
  name: string;
  /** Columns that can be written (generated columns are left out: PostgreSQL computes them). */
  columns: string[];
  /** Primary key columns, the order rows are dumped and compared in. */
  key: string[];
}

/** One dumped table, as recorded in the backup manifest. */
export interface DumpedTable {
  name: string;
  columns: string[];
  rows: number;
  sha256: string;
}

/** A sequence's position, so ids handed out after a restore never collide with restored ones. */
export interface SequenceState {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

/** How far the database's schema is: the number of applied migrations and the last one's tag. */
export interface MigrationLevel {
  count: number;
  /** drizzle's `created_at` of the last applied migration (the journal's `when`). */
  lastWhen: number | null;
  tag: string | null;
}

/** Tables that every start of the server fills on its own (system roles, their grants, seed marks). */
const seededAtStart = new Set(['roles', 'role_permissions', 'app_meta']);

const fetchSize = 1_000;
/** Rows per INSERT while restoring (also bounded by size). */
const insertBatchRows = 1_000;
const insertBatchChars = 4 * 1024 * 1024;

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

/** Quotes an identifier read from the catalogue. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Lists the tables of `public`, ordered so referenced tables come before the tables referencing them. */
export async function listTables(db: Database): Promise<TableInfo[]> {
  const tables = rowsOf<{ name: string; columns: string[]; key: string[] }>(
    await db.execute(sql`
      select c.relname as name,
        (select coalesce(json_agg(a.attname order by a.attnum), '[]'::json) from pg_attribute a
          where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns,
        (select coalesce(json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum)), '[]'::json)
          from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indrelid = c.oid and i.indisprimary) as key
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname`),
  );
  const edges = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      select c.relname as child, p.relname as parent
      from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace and k.conrelid <> k.confrelid`),
  );
  return orderByReferences(tables, edges);
}

/** Kahn's order by foreign keys; tables in a cycle (users ↔ files) follow in name order. */
function orderByReferences(tables: TableInfo[], edges: { child: string; parent: string }[]): TableInfo[] {
  const pending = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  while (pending.size > 0) {
    const ready = [...pending.values()].filter(
      (table) => !edges.some((edge) => edge.child === table.name && pending.has(edge.parent)),
    );
    const next = ready.length > 0 ? ready : [...pending.values()].slice(0, 1);
    for (const table of next) {
      ordered.push(table);
      pending.delete(table.name);
    }
  }
  return ordered;
}

/** The migrations applied to this database, read from drizzle's own table. */
export async function readMigrationLevel(db: Database): Promise<MigrationLevel> {
  const [exists] = rowsOf<{ present: boolean }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
  );
  if (exists?.present !== true) {
    return { count: 0, lastWhen: null, tag: null };
  }
  const [row] = rowsOf<{ count: number; last: string | null }>(
    await db.execute(
      sql`select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations`,
    ),
  );
  const lastWhen = row?.last === null || row?.last === undefined ? null : Number(row.last);
  const tag =
    lastWhen === null ? null : (journalEntries().find((entry) => entry.when === lastWhen)?.tag ?? null);
  return { count: row?.count ?? 0, lastWhen, tag };
}

interface JournalEntry {
  when: number;
  tag: string;
}

/** The migrations this version of the code knows, in order (drizzle's journal). */
export function journalEntries(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries.map((entry) => ({ when: entry.when, tag: entry.tag }));
}

/**
 * Applies the first `count` migrations of this version (an archive made by an
 * older version is loaded at its own level, then the rest of the migrations
 * run over the restored data, exactly as an upgrade would).
 */
export async function migrateTo(client: DatabaseClient, count: number): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  if (count >= migrations.length) {
    await client.migrate();
    return;
  }
  const { dialect, session } = client.db as unknown as { dialect: PgDialect; session: PgSession };
  await dialect.migrate(migrations.slice(0, count), session, { migrationsFolder });
}

/**
 * Writes every table to `<file>(table)` inside one REPEATABLE READ, read-only
 * transaction, so the files are one consistent snapshot even while servers
 * keep writing (PostgreSQL). Resolves with the tables (in restore order) and
 * the sequences' positions.
 */
export async function dumpDatabase(
  db: Database,
  fileOf: (table: string) => string,
): Promise<{ tables: DumpedTable[]; sequences: SequenceState[] }> {
  return db.transaction(
    async (tx) => {
      // The same text whatever the server's settings, so dumps of one data compare byte for byte.
      await tx.execute(
        sql`select set_config('TimeZone', 'UTC', true), set_config('IntervalStyle', 'postgres', true)`,
      );
      const tables = await listTables(tx);
      const dumped: DumpedTable[] = [];
      for (const table of tables) {
        const order = table.key.length > 0 ? ` order by ${table.key.map(quoteIdent).join(', ')}` : '';
        await tx.execute(
          sql.raw(
            `declare telemedicina_backup no scroll cursor for select row_to_json(t)::text as j from (select * from ${quoteIdent(table.name)}${order}) t`,
          ),
        );
        const output = createWriteStream(fileOf(table.name));
        const hash = createHash('sha256');
        let rows = 0;
        for (;;) {
          const batch = rowsOf<{ j: string }>(
            await tx.execute(sql.raw(`fetch ${fetchSize} from telemedicina_backup`)),
          );
          if (batch.length === 0) {
            break;
          }
          const text = batch.map((row) => `${row.j}\n`).join('');
          hash.update(text);
          rows += batch.length;
          if (!output.write(text)) {
            await once(output, 'drain');
          }
        }
        await tx.execute(sql.raw('close telemedicina_backup'));
        output.end();
        await once(output, 'finish');
        dumped.push({ name: table.name, columns: table.columns, rows, sha256: hash.digest('hex') });
      }
      const sequences = await readSequences(tx);
      return { tables: dumped, sequences };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

async function readSequences(db: Database): Promise<SequenceState[]> {
  const names = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by c.relname`),
  );
  const states: SequenceState[] = [];
  for (const { name } of names) {
    const [state] = rowsOf<{ last_value: string; is_called: boolean }>(
      await db.execute(sql.raw(`select last_value::text, is_called from ${quoteIdent(name)}`)),
    );
    if (state !== undefined) {
      states.push({ name, lastValue: state.last_value, isCalled: state.is_called });
    }
  }
  return states;
}

/** Tables holding rows beyond what a server start writes on its own (empty = a fresh instance). */
export async function findTablesWithData(db: Database): Promise<string[]> {
  const found: string[] = [];
  for (const table of await listTables(db)) {
    if (seededAtStart.has(table.name)) {
      continue;
    }
    const [row] = rowsOf<{ present: boolean }>(
      await db.execute(sql.raw(`select exists (select 1 from ${quoteIdent(table.name)}) as present`)),
    );
    if (row?.present === true) {
      found.push(table.name);
    }
  }
  return found;
}

/**
 * Replaces every table's rows with the dumped ones, in one transaction: the
 * foreign keys are dropped and added back (which checks every restored row
 * against them; users ↔ files reference each other), user triggers are off
 * meanwhile (the audit trail's append-only guard would refuse the wipe, and
 * `users.role_keys` is restored as it was rather than recomputed), the
 * sequences are set to where they were.
 */
export async function loadDatabase(
  db: Database,
  input: {
    tables: DumpedTable[];
    sequences: SequenceState[];
    lines: (table: string) => AsyncIterable<string>;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const targetTables = await listTables(tx);
    const byName = new Map(targetTables.map((table) => [table.name, table]));
    for (const dumped of input.tables) {
      const target = byName.get(dumped.name);
      if (target === undefined) {
        throw new RestoreRefusedError(
          `The archive holds table ${dumped.name}, which this database does not have.`,
        );
      }
      const missing = dumped.columns.filter((column) => !target.columns.includes(column));
      if (missing.length > 0) {
        throw new RestoreRefusedError(
          `Table ${dumped.name} in the archive has columns this database does not have: ${missing.join(', ')}.`,
        );
      }
    }
    const foreignKeys = rowsOf<{ table: string; name: string; definition: string }>(
      await tx.execute(sql`
        select c.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
        from pg_constraint k join pg_class c on c.oid = k.conrelid
        where k.contype = 'f' and k.connamespace = 'public'::regnamespace
        order by c.relname, k.conname`),
    );
    for (const key of foreignKeys) {
      await tx.execute(
        sql.raw(`alter table ${quoteIdent(key.table)} drop constraint ${quoteIdent(key.name)}`),
      );
    }
    for (const table of targetTables) {
      await tx.execute(sql.raw(`alter table ${quoteIdent(table.name)} disable trigger user`));
    }
    if (targetTables.length > 0) {
      await tx.execute(
        sql.raw(
          `truncate table ${targetTables.map((table) => quoteIdent(table.name)).join(', ')} restart identity`,
        ),
      );
    }
    for (const dumped of input.tables) {
      await insertRows(tx, dumped, input.lines(dumped.name));
    }
    for (const sequence of input.sequences) {
      await tx.execute(
        sql`select setval(${`public.${quoteIdent(sequence.name)}`}::regclass, ${sequence.lastValue}::bigint, ${sequence.isCalled})`,
      );
    }
    for (const table of targetTables) {
      await tx.execute(sql.raw(`alter table ${quoteIdent(table.name)} enable trigger user`));
    }
    for (const key of foreignKeys) {
      await tx.execute(
        sql.raw(
          `alter table ${quoteIdent(key.table)} add constraint ${quoteIdent(key.name)} ${key.definition}`,
        ),
      );
    }
  });
}

async function insertRows(db: Database, table: DumpedTable, lines: AsyncIterable<string>): Promise<void> {
  const columns = table.columns.map(quoteIdent).join(', ');
  const statement = (json: string): SQL =>
    sql`insert into ${sql.raw(quoteIdent(table.name))} (${sql.raw(columns)}) overriding system value
      select ${sql.raw(columns)} from json_populate_recordset(null::${sql.raw(quoteIdent(table.name))}, ${json}::json)`;
  let batch: string[] = [];
  let size = 0;
  let inserted = 0;
  const flush = async (): Promise<void> => {
    if (batch.length > 0) {
      await db.execute(statement(`[${batch.join(',')}]`));
      inserted += batch.length;
      batch = [];
      size = 0;
    }
  };
  for await (const line of lines) {
    if (line === '') {
      continue;
    }
    batch.push(line);
    size += line.length;
    if (batch.length >= insertBatchRows || size >= insertBatchChars) {
      await flush();
    }
  }
  await flush();
  if (inserted !== table.rows) {
    throw new RestoreRefusedError(
      `Table ${table.name}: the archive lists ${table.rows} rows but holds ${inserted}.`,
    );
  }
}

/** The lines of an NDJSON file. */
export async function* readLines(file: string): AsyncIterable<string> {
  const reader = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of reader) {
    yield line;
  }
}
