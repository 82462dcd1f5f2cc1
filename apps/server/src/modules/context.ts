import type { AuditAction, AuditTargetType } from '@telemedicina/shared/audit-actions';
import type { Notification } from '@telemedicina/shared/notifications';
import type { Permission } from '@telemedicina/shared/permission-catalogue';
import type { Config } from '../config/config.js';
import type { Database, DatabaseClient } from '../db/client.js';
import { appError } from '../lib/app-error.js';
import type { BackgroundTasks } from '../lib/background-tasks.js';
import type { Mailer } from '../lib/mail.js';
import type { PasswordHasher } from '../lib/passwords.js';
import type { SecretBox } from '../lib/secret-box.js';

/*
 * The bottom of the server's modules: every module may import this file, and
 * it imports no module (the order between modules is in
 * `serverModuleLayers` in eslint.config.js).
 */

/** The signed-in user behind a request, as the authentication hook loaded it. */
export interface Actor {
  userId: string;
  sessionId: string;
  permissions: ReadonlySet<Permission>;
  roleKeys: readonly string[];
  /** The user's role requires a second factor that is not set up: only MFA setup is allowed. */
  mfaEnrollmentRequired: boolean;
  session: { createdAt: Date; idleTimeoutSeconds: number; expiresAt: Date };
}

/** Where a request came from, for sessions and the audit trail. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** Ends the live real-time connections of sessions (logout, revoke, expiry…). */
export interface SessionSockets {
  disconnectSessions(sessionIds: readonly string[]): void;
  /** Pushes a new in-app notification to the user's live connections (room `user:<id>`). */
  notifyUser(userId: string, notification: Notification): void;
}

/** Long-lived collaborators, built once per app. */
export interface AppServices {
  /** The query handle (Drizzle) every repository takes. */
  db: Database;
  /** The connection behind it: its kind, health check, migrations and close. */
  database: DatabaseClient;
  config: Config;
  now: () => Date;
  mailer: Mailer;
  /** Work started by a request that its answer does not wait for (see lib/background-tasks). */
  background: BackgroundTasks;
  passwords: PasswordHasher;
  secrets: SecretBox;
  sockets: SessionSockets;
}

/**
 * What a use case receives besides who is asking: the app's collaborators,
 * where the request came from, and an audit writer bound to the asker.
 */
export interface RequestScope extends AppServices {
  request: RequestMeta;
  audit(event: AuditEventInput): Promise<void>;
}

/**
 * What every service function receives explicitly: the request scope and the
 * actor (null = anonymous). The visit use cases, where a guest may ask too,
 * derive theirs from the same scope (modules/visits/visit-context.ts).
 */
export interface ServiceContext extends RequestScope {
  actor: Actor | null;
}

/** One entry of the audit trail, as a service asks `ctx.audit` to write it. */
export interface AuditEventInput {
  action: AuditAction;
  outcome?: 'success' | 'failure' | 'denied';
  targetType?: AuditTargetType | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
  /** Defaults to the signed-in actor; set it when the actor is known otherwise (sign-in). */
  actorUserId?: string | null;
}

/** The signed-in actor; routes that need one guarantee it, so its absence is a 401. */
export function requireActor(ctx: ServiceContext): Actor {
  if (ctx.actor === null) {
    throw appError('UNAUTHENTICATED', 'Sign in to continue.');
  }
  return ctx.actor;
}
