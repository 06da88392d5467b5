/**
 * An owner process for the remote-edit failover test: takes the lease of SESSION on DATABASE_URL,
 * drives it with a model that never answers (so queued items stay queued), and applies the
 * remote requests in journal order. Prints `ready`, then `applied <seq> <op>` after each request
 * it applied (what the edit did is handed to the store, its checkpoint may not have committed).
 */
import pg from 'pg'
import { NEVER } from 'rxjs'
import { createAgent } from '../../../src/index.js'
import { applyRemoteSends, openPostgresSession } from '../../../src/postgres.js'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 6 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const store = await openPostgresSession(pool, process.env.SESSION ?? '', { pollMs: 50 })
await store.takeLease()
const agent = createAgent({ model: () => NEVER, store })
applyRemoteSends(agent, store, {
  applied: (request) => process.stdout.write(`applied ${request.seq} ${request.record.op}\n`),
  failed: (error) => process.stdout.write(`error ${String(error)}\n`),
})
process.stdout.write('ready\n')
