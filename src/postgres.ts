/**
 * `steerable/postgres`: sessions on PostgreSQL (R53–R60). Needs the `pg` driver (an optional
 * peer dependency): pass a `pg.Pool`.
 */

export {
  type ConnectSessionsOptions,
  connectSessions,
  type RemoteSession,
  type SessionsClient,
} from './postgres/client/connectSessions.js'
export type { RemoteApprovals } from './postgres/client/remoteDecisionCalls.js'
export type { RemoteInboxControls } from './postgres/client/remoteEditCalls.js'
export type { RemoteHistory } from './postgres/client/remoteHistory.js'
export type { RemoteToolCalls } from './postgres/client/remoteToolCalls.js'
export { type DatabaseOptions, LeaseLostError } from './postgres/db/databaseErrors.js'
export { type MigrateResult, migrate } from './postgres/db/migrate.js'
export type { PostgresPool } from './postgres/db/pgTypes.js'
export { DatabaseTimeoutError } from './postgres/db/timeouts.js'
export { applyRemoteRequests, applyRemoteSends } from './postgres/owner/applyRemoteRequests.js'
export { openPostgresSession } from './postgres/owner/openPostgresSession.js'
export type { PostgresSessionStore } from './postgres/owner/postgresSessionStore.js'
export { type PublishEventsOptions, publishEvents } from './postgres/owner/publishEvents.js'
export type { EventsLostEvent, RemoteAgentEvent } from './postgres/rows/liveEvents.js'
export type {
  PendingRemoteEdit,
  PendingRemoteRequest,
  PendingRemoteSend,
} from './postgres/rows/pendingRemoteRequests.js'
export type { RemoteEditRecord } from './postgres/rows/remoteEditRecord.js'
export type { RemoteSendRecord } from './postgres/rows/remoteSendRecord.js'
export { createWorker, type Worker, type WorkerOptions } from './postgres/worker/createWorker.js'
