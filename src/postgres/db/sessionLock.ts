/**
 * The lease of a session (R54) is a session-level advisory lock on a 64-bit hash of its id, apart
 * from other uses of locks. The owner takes and releases it (owner/sessionLease.ts); a client that
 * must know whether some process drives the session reads `pg_locks` for it (`DRIVEN`).
 */

/** The lock key of the session whose id is the query's `$1`. */
export const SESSION_LOCK_KEY = 'hashtextextended($1, 7283)'

/**
 * Whether some connection holds the lease of the session `$1` now: `pg_locks` shows a bigint
 * advisory key as its high 32 bits (`classid`) and low 32 bits (`objid`), with `objsubid` 1.
 */
export const DRIVEN = `EXISTS (
  SELECT 1 FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid::bigint = (${SESSION_LOCK_KEY} >> 32) & 4294967295
    AND l.objid::bigint = ${SESSION_LOCK_KEY} & 4294967295
)`
