/**
 * A client process for the approval tests (R65): `connectSessions` on DATABASE_URL, then one
 * decision on SESSION: DECISION (`approve` or `deny`) of the call CALL. With WAIT=pending it first
 * waits until `approvals$` lists CALL (printing `pending <ids>`), else it decides at once.
 *
 * Prints `decided` when the owner applied the decision, `refused <error name>` when it was
 * refused, `failed <error>` when it could not be stored, then exits 0. Environment: DATABASE_URL,
 * SESSION, CALL, DECISION, WAIT.
 */
import pg from 'pg'
import { filter, firstValueFrom, tap } from 'rxjs'
import { connectSessions } from '../../../src/postgres.js'

const env = (name: string) => process.env[name] ?? ''
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 4 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const write = (line: string) => process.stdout.write(`${line}\n`)
const client = connectSessions(pool, { pollMs: 100 })
const session = client.session(env('SESSION'))
const callId = env('CALL')

if (env('WAIT') === 'pending')
  await firstValueFrom(
    session.approvals$.pipe(
      tap((list) => write(`pending ${list.map((a) => a.callId).join(',')}`)),
      filter((list) => list.some((a) => a.callId === callId)),
    ),
  )
const decided =
  env('DECISION') === 'deny' ? session.deny(callId, { reason: 'from a client' }) : session.approve(callId)
await decided.then(
  () => write('decided'),
  (error: unknown) =>
    write(
      error instanceof Error && error.name === 'ApprovalNotPendingError'
        ? `refused ${error.name}`
        : `failed ${String(error)}`,
    ),
)
await client.close()
await pool.end()
process.exit(0)
