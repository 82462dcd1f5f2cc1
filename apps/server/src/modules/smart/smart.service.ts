import { appError } from '../../lib/app-error.js';
import { requireActor, type ServiceContext } from '../context.js';
import { findUserRoles } from '../identity/users.repository.js';
import { writeSetting } from '../settings/settings.repository.js';
import { openRegistrationSettingKey, isOpenRegistrationAllowed, type SmartServer } from './smart-provider.js';
import {
  deleteOauthRecord,
  deleteOauthRecordsOfGrant,
  findLiveConnection,
  findSmartClient,
  findSmartConnection,
  listLiveConnectionsOfUser,
  listSmartClients,
  markConnectionsDisconnected,
  setSmartClientBlocked,
  upsertOauthRecord,
  upsertSmartConnection,
} from './smart.repository.js';
import { parseResourceScope, smartAllScopes } from './smart-scopes.js';

const knownScopes = new Set(smartAllScopes);

async function loadInteraction(smart: SmartServer, uid: string) {
  const interaction = await (await smart.provider()).Interaction.find(uid);
  if (interaction === undefined) {
    throw appError('NOT_FOUND', 'This authorization request has ended. Start again from the app.');
  }
  const clientId = typeof interaction.params.client_id === 'string' ? interaction.params.client_id : '';
  const client = await (await smart.provider()).Client.find(clientId);
  if (client === undefined) {
    throw appError('NOT_FOUND', 'This authorization request has ended. Start again from the app.');
  }
  return { interaction, client };
}

function requestedScopes(scope: unknown): string[] {
  return [...new Set(typeof scope === 'string' ? scope.split(' ') : [])].filter((item) =>
    knownScopes.has(item),
  );
}

/** Refuses what this person cannot grant: patient-level access is for the patient themselves. */
async function checkCanGrant(
  ctx: ServiceContext,
  userId: string,
  scopes: readonly string[],
): Promise<boolean> {
  const roles = await findUserRoles(ctx.db, userId);
  const isPatient = roles.some((role) => role.key === 'patient');
  const asksPatientContext =
    scopes.includes('launch/patient') ||
    scopes.some((scope) => parseResourceScope(scope)?.context === 'patient');
  return isPatient || !asksPatientContext;
}

/** The consent screen: the app asking and the permissions it asks for. */
export async function getSmartInteraction(ctx: ServiceContext, smart: SmartServer, uid: string) {
  requireActor(ctx);
  const { interaction, client } = await loadInteraction(smart, uid);
  const smartClient = await findSmartClient(ctx.db, client.clientId);
  if ((smartClient?.blockedAt ?? null) !== null) {
    throw appError('FORBIDDEN', 'The clinic has blocked this app.');
  }
  return {
    uid: interaction.uid,
    client: {
      id: client.clientId,
      name: client.clientName ?? smartClient?.name ?? client.clientId,
      uri: typeof client.clientUri === 'string' ? client.clientUri : null,
    },
    scopes: requestedScopes(interaction.params.scope),
  };
}

/**
 * The person's answer. Allow: signs them in at the authorization server (the app's own session,
 * second factor included, is the proof) and grants the scopes asked; deny: the app gets
 * access_denied. Either way the browser goes back to the authorization server.
 */
export async function decideSmartInteraction(
  ctx: ServiceContext,
  smart: SmartServer,
  uid: string,
  decision: 'allow' | 'deny',
): Promise<{ redirectTo: string }> {
  const actor = requireActor(ctx);
  const { interaction, client } = await loadInteraction(smart, uid);
  const scopes = requestedScopes(interaction.params.scope);
  const smartClient = await findSmartClient(ctx.db, client.clientId);
  const isBlocked = (smartClient?.blockedAt ?? null) !== null;
  const canGrant = await checkCanGrant(ctx, actor.userId, scopes);
  if (decision === 'deny' || isBlocked || !canGrant) {
    interaction.result = {
      error: 'access_denied',
      error_description: isBlocked
        ? 'The clinic has blocked this app.'
        : canGrant
          ? 'The person refused.'
          : 'Patient-level access is granted by the patient.',
    };
    await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
    await ctx.audit({
      action: 'smart.app_refused',
      targetType: 'smart_app',
      targetId: client.clientId,
      details: {
        name: client.clientName ?? null,
        scopes,
        reason: isBlocked ? 'blocked' : canGrant ? 'person' : 'not_patient',
      },
    });
    if (decision === 'allow' && isBlocked) {
      throw appError('FORBIDDEN', 'The clinic has blocked this app.');
    }
    return { redirectTo: interaction.returnTo };
  }
  // One connection per person and app: a new authorization adds to the live grant.
  const live = await findLiveConnection(ctx.db, actor.userId, client.clientId);
  const existingId = interaction.grantId ?? live?.grantId;
  const provider = await smart.provider();
  const existing = existingId === undefined ? undefined : await provider.Grant.find(existingId);
  const grant =
    existing !== undefined && existing.accountId === actor.userId && existing.clientId === client.clientId
      ? existing
      : new provider.Grant({ accountId: actor.userId, clientId: client.clientId });
  grant.addOIDCScope(scopes.join(' '));
  if (scopes.includes('fhirUser')) {
    grant.addOIDCClaims(['fhirUser']);
  }
  const grantId = await grant.save();
  interaction.result = { login: { accountId: actor.userId, remember: false }, consent: { grantId } };
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  const isPatientLaunch = scopes.includes('launch/patient');
  await upsertSmartConnection(ctx.db, {
    grantId,
    clientId: client.clientId,
    userId: actor.userId,
    // Everything the connection may now do (earlier authorizations of the app included).
    scopes: (grant.getOIDCScope() ?? '').split(' ').filter((scope) => scope !== ''),
    patientId: isPatientLaunch ? actor.userId : null,
    createdAt: ctx.now(),
  });
  await ctx.audit({
    action: 'smart.app_authorized',
    targetType: 'smart_app',
    targetId: client.clientId,
    details: { name: client.clientName ?? null, scopes, grantId },
  });
  return { redirectTo: interaction.returnTo };
}

/** The signed-in person's connected apps. */
export async function listConnectedApps(ctx: ServiceContext) {
  const actor = requireActor(ctx);
  return listLiveConnectionsOfUser(ctx.db, actor.userId);
}

/** Ends a connection: the grant and all its tokens go; the next FHIR call with them is 401. */
export async function disconnectApp(ctx: ServiceContext, grantId: string): Promise<void> {
  const actor = requireActor(ctx);
  const connection = await findSmartConnection(ctx.db, grantId);
  if (connection === null || connection.userId !== actor.userId || connection.disconnectedAt !== null) {
    throw appError('NOT_FOUND', 'This connected app was not found.');
  }
  await revokeGrant(ctx, grantId);
  await ctx.audit({
    action: 'smart.app_disconnected',
    targetType: 'smart_app',
    targetId: connection.clientId,
    details: { grantId },
  });
}

async function revokeGrant(ctx: ServiceContext, grantId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await deleteOauthRecordsOfGrant(tx, grantId);
    await deleteOauthRecord(tx, 'Grant', grantId);
    await markConnectionsDisconnected(tx, [grantId], ctx.now());
  });
}

/** Administrators: every registered app, and whether open registration is on. */
export async function listRegisteredApps(ctx: ServiceContext) {
  requireActor(ctx);
  const [rows, openRegistration] = await Promise.all([
    listSmartClients(ctx.db),
    isOpenRegistrationAllowed(ctx),
  ]);
  return { rows, openRegistration };
}

/** Blocks (or unblocks) an app: a blocked app's tokens stop resolving and it cannot be authorized. */
export async function setAppBlocked(
  ctx: ServiceContext,
  clientId: string,
  isBlocked: boolean,
): Promise<void> {
  const actor = requireActor(ctx);
  const changed = await setSmartClientBlocked(
    ctx.db,
    clientId,
    isBlocked ? { at: ctx.now(), byUserId: actor.userId } : null,
  );
  if (!changed) {
    throw appError('NOT_FOUND', 'This app was not found.');
  }
  await ctx.audit({
    action: isBlocked ? 'smart.app_blocked' : 'smart.app_unblocked',
    targetType: 'smart_app',
    targetId: clientId,
  });
}

/** Opens or closes dynamic registration to public clients without an initial access token. */
export async function setOpenRegistration(ctx: ServiceContext, isOpen: boolean): Promise<void> {
  const actor = requireActor(ctx);
  await writeSetting(ctx.db, openRegistrationSettingKey, isOpen, { now: ctx.now(), userId: actor.userId });
  await ctx.audit({
    action: 'settings.updated',
    targetType: 'settings',
    details: { keys: [openRegistrationSettingKey], openRegistration: isOpen },
  });
}

const initialAccessTokenSeconds = 24 * 60 * 60;

/** An initial access token for one dynamic registration, valid for a day. */
export async function issueInitialAccessToken(
  ctx: ServiceContext,
  smart: SmartServer,
): Promise<{ token: string; expiresAt: Date }> {
  const actor = requireActor(ctx);
  const token = new (await smart.provider()).InitialAccessToken({ expiresIn: initialAccessTokenSeconds });
  const value = await token.save();
  const expiresAt = new Date(ctx.now().getTime() + initialAccessTokenSeconds * 1000);
  // Who issued it, so the app it registers shows them.
  await upsertOauthRecord(ctx.db, {
    model: 'InitialAccessToken',
    id: value,
    payload: {
      jti: value,
      kind: 'InitialAccessToken',
      exp: Math.floor(expiresAt.getTime() / 1000),
      issuedBy: actor.userId,
    },
    expiresAt,
  });
  await ctx.audit({
    action: 'smart.registration_token_issued',
    targetType: 'smart_app',
    details: { expiresAt },
  });
  return { token: value, expiresAt };
}
