import { type DatabaseOptions, databaseError } from './databaseErrors.js'
import type { PostgresPool } from './pgTypes.js'
import { MIGRATE_LOCK, MIGRATIONS, MIGRATIONS_TABLE } from './schema.js'
import { DEFAULT_TIMEOUT_MS, withConnection } from './timeouts.js'

/** What `migrate` did: the schema version before and after. */
export type MigrateResult = { readonly from: number; readonly to: number }

/**
 * Creates (or brings up to date) the tables of sessions on PostgreSQL (R53): idempotent, so it
 * can run at every start of every process; concurrent runs wait for each other (an advisory
 * lock), and each step commits with the record that it ran, so a step runs once.
 */
export const migrate = async (pool: PostgresPool, options: DatabaseOptions = {}): Promise<MigrateResult> => {
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  try {
    return await withConnection(pool, ms, async (query) => {
      await query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK])
      try {
        await query(MIGRATIONS_TABLE)
        const { rows } = await query('SELECT coalesce(max(version), 0) AS version FROM steerable_migrations')
        const from = Number(rows[0]?.version ?? 0)
        for (let version = from + 1; version <= MIGRATIONS.length; version++) {
          await query('BEGIN')
          try {
            for (const statement of MIGRATIONS[version - 1]!) await query(statement)
            await query('INSERT INTO steerable_migrations (version) VALUES ($1)', [version])
            await query('COMMIT')
          } catch (error) {
            await query('ROLLBACK').catch(() => {})
            throw error
          }
        }
        return { from, to: Math.max(from, MIGRATIONS.length) }
      } finally {
        await query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => {})
      }
    })
  } catch (error) {
    throw databaseError(undefined, 'create its tables (migrate)', error)
  }
}
