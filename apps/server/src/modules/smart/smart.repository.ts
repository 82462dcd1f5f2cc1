import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { oauthRecords, smartClients, smartConnections, smartSigningKeys } from '../../db/schema.js';

/*
 * Every query of the SMART tables: the OAuth server's records (its adapter), its signing keys,
 * the registered apps and the people's connections of them.
 */

export type OauthRecordRow = typeof oauthRecords.$inferSelect;

export async function upsertOauthRecord(db: Database, row: typeof oauthRecords.$inferInsert): Promise<void> {
  await db
    .insert(oauthRecords)
    .values(row)
    .onConflictDoUpdate({
      target: [oauthRecords.model, oauthRecords.id],
      set: {
        payload: row.payload,
        grantId: row.grantId ?? null,
        userCode: row.userCode ?? null,
        uid: row.uid ?? null,
        expiresAt: row.expiresAt ?? null,
      },
    });
}

export async function findOauthRecord(
  db: Database,
  model: string,
  id: string,
): Promise<OauthRecordRow | null> {
  const [row] = await db
    .select()
    .from(oauthRecords)
    .where(and(eq(oauthRecords.model, model), eq(oauthRecords.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findOauthRecordBy(
  db: Database,
  model: string,
  column: 'uid' | 'userCode',
  value: string,
): Promise<OauthRecordRow | null> {
  const [row] = await db
    .select()
    .from(oauthRecords)
    .where(and(eq(oauthRecords.model, model), eq(oauthRecords[column], value)))
    .limit(1);
  return row ?? null;
}

export async function consumeOauthRecord(db: Database, model: string, id: string, at: Date): Promise<void> {
  await db
    .update(oauthRecords)
    .set({ consumedAt: at })
    .where(and(eq(oauthRecords.model, model), eq(oauthRecords.id, id)));
}

export async function deleteOauthRecord(db: Database, model: string, id: string): Promise<void> {
  await db.delete(oauthRecords).where(and(eq(oauthRecords.model, model), eq(oauthRecords.id, id)));
}

export async function deleteOauthRecordsOfGrant(
  db: Database,
  grantId: string,
  model?: string,
): Promise<void> {
  await db
    .delete(oauthRecords)
    .where(
      model === undefined
        ? eq(oauthRecords.grantId, grantId)
        : and(eq(oauthRecords.model, model), eq(oauthRecords.grantId, grantId)),
    );
}

/** Removes records past their expiry (run on start; the adapter never returns them anyway). */
export async function deleteExpiredOauthRecords(db: Database, at: Date): Promise<void> {
  await db.delete(oauthRecords).where(lt(oauthRecords.expiresAt, at));
}

export async function findSigningKeys(
  db: Database,
  id: string,
): Promise<{ sealed: string; createdAt: Date } | null> {
  const [row] = await db.select().from(smartSigningKeys).where(eq(smartSigningKeys.id, id)).limit(1);
  return row === undefined ? null : { sealed: row.sealedJwks, createdAt: row.createdAt };
}

/** Replaces the keys only if they are still the set that was read (false when another instance won). */
export async function replaceSigningKeys(
  db: Database,
  id: string,
  previousSealed: string,
  nextSealed: string,
): Promise<boolean> {
  const updated = await db
    .update(smartSigningKeys)
    .set({ sealedJwks: nextSealed })
    .where(and(eq(smartSigningKeys.id, id), eq(smartSigningKeys.sealedJwks, previousSealed)))
    .returning({ id: smartSigningKeys.id });
  return updated.length === 1;
}

/** Stores the keys unless another instance stored its own first (then those are kept). */
export async function insertSigningKeysIfAbsent(
  db: Database,
  id: string,
  sealedJwks: string,
  at: Date,
): Promise<void> {
  await db.insert(smartSigningKeys).values({ id, sealedJwks, createdAt: at }).onConflictDoNothing();
}

export type SmartClientRow = typeof smartClients.$inferSelect;

export async function insertSmartClient(db: Database, row: typeof smartClients.$inferInsert): Promise<void> {
  await db.insert(smartClients).values(row).onConflictDoNothing();
}

export async function findSmartClient(db: Database, clientId: string): Promise<SmartClientRow | null> {
  const [row] = await db.select().from(smartClients).where(eq(smartClients.clientId, clientId)).limit(1);
  return row ?? null;
}

export interface SmartClientListRow extends SmartClientRow {
  payload: Record<string, unknown> | null;
  registeredByName: string | null;
}

export async function listSmartClients(db: Database): Promise<SmartClientListRow[]> {
  const rows = await db
    .select({
      client: smartClients,
      payload: oauthRecords.payload,
      registeredByName: sql<
        string | null
      >`(select name from users where users.id = ${smartClients.registeredByUserId})`,
    })
    .from(smartClients)
    .leftJoin(oauthRecords, and(eq(oauthRecords.model, 'Client'), eq(oauthRecords.id, smartClients.clientId)))
    .orderBy(desc(smartClients.registeredAt));
  return rows.map((row) => ({ ...row.client, payload: row.payload, registeredByName: row.registeredByName }));
}

export async function setSmartClientBlocked(
  db: Database,
  clientId: string,
  blocked: { at: Date; byUserId: string } | null,
): Promise<boolean> {
  const rows = await db
    .update(smartClients)
    .set({ blockedAt: blocked?.at ?? null, blockedByUserId: blocked?.byUserId ?? null })
    .where(eq(smartClients.clientId, clientId))
    .returning({ clientId: smartClients.clientId });
  return rows.length > 0;
}

export type SmartConnectionRow = typeof smartConnections.$inferSelect;

export async function upsertSmartConnection(
  db: Database,
  row: typeof smartConnections.$inferInsert,
): Promise<void> {
  await db
    .insert(smartConnections)
    .values(row)
    .onConflictDoUpdate({
      target: smartConnections.grantId,
      set: {
        scopes: row.scopes,
        patientId: row.patientId ?? null,
        disconnectedAt: null,
      },
    });
}

export async function findSmartConnection(db: Database, grantId: string): Promise<SmartConnectionRow | null> {
  const [row] = await db
    .select()
    .from(smartConnections)
    .where(eq(smartConnections.grantId, grantId))
    .limit(1);
  return row ?? null;
}

/** The person's live connection of an app, if any (a new authorization adds to it). */
export async function findLiveConnection(
  db: Database,
  userId: string,
  clientId: string,
): Promise<SmartConnectionRow | null> {
  const [row] = await db
    .select()
    .from(smartConnections)
    .where(
      and(
        eq(smartConnections.userId, userId),
        eq(smartConnections.clientId, clientId),
        isNull(smartConnections.disconnectedAt),
      ),
    )
    .orderBy(desc(smartConnections.createdAt))
    .limit(1);
  return row ?? null;
}

export async function listLiveConnectionsOfUser(
  db: Database,
  userId: string,
): Promise<(SmartConnectionRow & { clientName: string | null; clientUri: string | null })[]> {
  const rows = await db
    .select({ connection: smartConnections, client: smartClients.name, payload: oauthRecords.payload })
    .from(smartConnections)
    .leftJoin(smartClients, eq(smartClients.clientId, smartConnections.clientId))
    .leftJoin(
      oauthRecords,
      and(eq(oauthRecords.model, 'Client'), eq(oauthRecords.id, smartConnections.clientId)),
    )
    .where(and(eq(smartConnections.userId, userId), isNull(smartConnections.disconnectedAt)))
    .orderBy(desc(smartConnections.createdAt));
  return rows.map((row) => ({
    ...row.connection,
    clientName: row.client,
    clientUri: typeof row.payload?.client_uri === 'string' ? row.payload.client_uri : null,
  }));
}

export async function markConnectionsDisconnected(
  db: Database,
  grantIds: readonly string[],
  at: Date,
): Promise<void> {
  if (grantIds.length === 0) {
    return;
  }
  await db
    .update(smartConnections)
    .set({ disconnectedAt: at })
    .where(and(inArray(smartConnections.grantId, grantIds), isNull(smartConnections.disconnectedAt)));
}

/** Records a use of the connection at most once a minute (a FHIR read, a refresh). */
export async function touchConnection(db: Database, grantId: string, at: Date): Promise<void> {
  await db
    .update(smartConnections)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(smartConnections.grantId, grantId),
        sql`(${smartConnections.lastUsedAt} is null or ${smartConnections.lastUsedAt} < ${new Date(at.getTime() - 60_000)})`,
      ),
    );
}
