/**
 * A process that sends into one session from outside (for the remote send tests). Environment:
 * DATABASE_URL, SESSION, COUNT. Sends COUNT messages without waiting between them (followups,
 * steers and injects in turn), then prints each id in the order it sent them: `id <id>`, then
 * `done`.
 */
import pg from 'pg'
import { connectSessions } from '../../../src/postgres.js'

const env = (name: string) => process.env[name] ?? ''
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 4 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const session = connectSessions(pool).session(env('SESSION'))
const sends = Array.from({ length: Number(env('COUNT')) }, (_, i) => {
  const text = `${process.pid}:${i}`
  return i % 3 === 0 ? session.followup(text) : i % 3 === 1 ? session.steer(text) : session.inject(text)
})
for (const id of await Promise.all(sends)) process.stdout.write(`id ${id}\n`)
process.stdout.write('done\n')
await pool.end()
process.exit(0)
