/**
 * `steerable/postgres`: sessions on PostgreSQL (R53–R60). Needs the `pg` driver (an optional
 * peer dependency): pass a `pg.Pool`.
 */

export { applyRemoteSends } from './postgres/applyRemoteSends.js'
export {
  type ConnectSessionsOptions,
  connectSessions,
  type RemoteSession,
  type SessionsClient,
} from './postgres/connectSessions.js'
export { createWorker, type Worker, type WorkerOptions } from './postgres/createWorker.js'
export { type DatabaseOptions, LeaseLostError } from './postgres/databaseErrors.js'
export type { EventsLostEvent, RemoteAgentEvent } from './postgres/liveEvents.js'
export { type MigrateResult, migrate } from './postgres/migrate.js'
export { openPostgresSession } from './postgres/openPostgresSession.js'
export type { PostgresPool } from './postgres/pgTypes.js'
export type { PostgresSessionStore } from './postgres/postgresSessionStore.js'
export { type PublishEventsOptions, publishEvents } from './postgres/publishEvents.js'
export type { RemoteInboxControls } from './postgres/remoteEditCalls.js'
export type { RemoteEditRecord } from './postgres/remoteEditRecord.js'
export type { RemoteSendRecord } from './postgres/remoteSendRecord.js'
export type { PendingRemoteEdit, PendingRemoteRequest, PendingRemoteSend } from './postgres/remoteSends.js'
export { DatabaseTimeoutError } from './postgres/timeouts.js'
