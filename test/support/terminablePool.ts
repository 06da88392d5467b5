import pg from 'pg'
import type { TestDatabase } from './testDatabase.js'

/**
 * A pool whose connections a test ends on the server (`pg_terminate_backend`) to see what the
 * library does when its database goes away. The library's own listeners on those connections
 * are what the test checks (by its assertions); the server's `57P01 terminating connection` that
 * reaches a connection in any other state is what the test asked for, so from `terminate()` on
 * this pool's connections carry a listener that takes it. Before it, an error still fails the run.
 */
export const terminablePool = (db: TestDatabase, name: string, max: number) => {
  const pool = new pg.Pool({ connectionString: db.url, application_name: name, max })
  pool.on('error', () => {})
  let terminated = false
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      if (!terminated && client.listenerCount('error') === 1) throw error
    })
  })
  const terminate = async (): Promise<void> => {
    terminated = true
    await db.pool.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [name],
    )
  }
  return { pool, terminate }
}
