// In db/, not owner/: owners and workers (which own no session while they scan) share it.

import { type NotificationHub, notificationHub } from './notificationHub.js'
import type { PostgresPool } from './pgTypes.js'

type Shared = { readonly hub: NotificationHub; users: number }

/** Per pool, the hub its owned sessions share while any of them follows its remote requests. */
const hubs = new WeakMap<PostgresPool, Shared>()

/**
 * The notification hub of `pool` for owners: every session a process owns on one pool listens on
 * one shared connection, not one each (a worker that owns many sessions would otherwise hold two
 * connections per session). Counted: the connection is closed when the last user releases it.
 */
export const acquireSharedHub = (
  pool: PostgresPool,
  ms: number,
): { hub: NotificationHub; release(): void } => {
  let shared = hubs.get(pool)
  if (!shared) {
    shared = { hub: notificationHub(pool, ms), users: 0 }
    hubs.set(pool, shared)
  }
  const entry = shared
  entry.users++
  let released = false
  return {
    hub: entry.hub,
    release: () => {
      if (released) return
      released = true
      entry.users--
      if (entry.users > 0) return
      if (hubs.get(pool) === entry) hubs.delete(pool)
      void entry.hub.close()
    },
  }
}
