/**
 * The process that runs the test run's PostgreSQL server (started by postgresGlobalSetup.ts).
 * It is a process of its own so that the server stops when the run dies, whatever killed it: it
 * prints `ready <url>`, then stops the server and exits when its stdin closes (the parent ended
 * it, or died) or on SIGTERM/SIGINT.
 */
import { startPostgresServer } from './postgresServer.js'

const server = await startPostgresServer()
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  void server.stop().finally(() => process.exit(0))
}
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
process.stdout.write(`ready ${server.url}\n`)
