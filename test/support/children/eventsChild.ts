/**
 * A process that follows one session's live events from outside (for the R56 tests).
 * Environment: DATABASE_URL, SESSION. Prints `event <type>` for each event of `events$`, with
 * the text of a stream delta as JSON: `event agent/stream/delta "Hello"`.
 */
import pg from 'pg'
import { connectSessions } from '../../../src/postgres.js'

const env = (name: string) => process.env[name] ?? ''
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 2 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

connectSessions(pool)
  .session(env('SESSION'))
  .events$.subscribe((event) => {
    const detail = event.type === 'agent/stream/delta' ? ` ${JSON.stringify(event.text)}` : ''
    process.stdout.write(`event ${event.type}${detail}\n`)
  })
