import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Agent } from '../contracts/agent.js'
import { checkInput, type InputCheck } from '../messages/checkInput.js'
import { describeValue } from '../messages/describeValue.js'
import { errorText } from '../messages/errorText.js'
import { record } from '../timeline/record.js'
import { refusedStatus, runCommand } from './api.js'
import { loadAppScript } from './appScript.js'
import { servePage } from './page.js'
import {
  COMMAND_BODY_TIMEOUT_MS,
  type CommandBodyError,
  MAX_COMMAND_BODY_BYTES,
  readCommandBody,
} from './readCommandBody.js'
import { reply, setGuardHeaders } from './reply.js'
import { requestTarget } from './requestTarget.js'
import { sameSecret } from './sameSecret.js'
import { MAX_UNSENT_EVENT_BYTES, streamTo } from './sse.js'

/** What `serve` bounds; the defaults are documented in docs/timeline.md. */
export type ServeLimits = {
  /** The largest command body, in bytes (413 past it); default 1 MiB. */
  readonly maxBodyBytes: number
  /** How long a command body may take to arrive (408 after it); default 30 s. */
  readonly bodyTimeoutMs: number
  /** Bytes an event stream may hold unsent beyond its first snapshot before it is dropped; default 8 MiB. */
  readonly maxUnsentBytes: number
}

export type ServeOptions = {
  /** Default `127.0.0.1`; any other host needs a `token`. */
  readonly host?: string
  /** Default 0: a free port. */
  readonly port?: number
  /** Required on every request (`?token=` or `Authorization: Bearer`) when set. */
  readonly token?: string
  /** For tests, smaller bounds than the defaults. */
  readonly limits?: Partial<ServeLimits>
}

export type Served = { readonly url: string; close(): Promise<void> }

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/**
 * The problems of `options` that `serve` and `steerable serve` refuse before they listen: another
 * host than loopback without a token (it would let other machines steer the agent), a port that is
 * not one. Each says what to add or change, in the command line's words.
 */
export const checkServeOptionsIn = (check: InputCheck, options: ServeOptions): void => {
  const host = options.host ?? '127.0.0.1'
  if (!LOOPBACK.has(host) && !options.token)
    check.add(
      ['--host'],
      `${host} lets other machines steer this agent; add --token SECRET (and open the page with ?token=SECRET)`,
    )
  const { port } = options
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    check.add(['--port'], `expected a port from 0 to 65535 (0 picks a free one), got ${describeValue(port)}`)
}

/** Whether `options` may serve: loopback, or another host with a token; `InvalidInputError` says what to add. */
export const checkServeOptions = (options: ServeOptions): void =>
  checkInput('steerable serve', (check) => checkServeOptionsIn(check, options))

/**
 * Serves a page to chat with `agent` and watch its timeline: `GET /` the page, `GET /events` the
 * server-sent events, `POST /api/<command>` the agent's methods. Without a token only loopback
 * Host headers are answered (a page on another site cannot reach it through DNS rebinding), and
 * commands must be JSON (a cross-site form cannot post one without a preflight we never allow).
 * No response may be framed; command bodies and what waits for a slow page are bounded.
 */
export const serveAgent = async (agent: Agent, options: ServeOptions = {}): Promise<Served> => {
  checkServeOptions(options)
  const limits: ServeLimits = {
    maxBodyBytes: MAX_COMMAND_BODY_BYTES,
    bodyTimeoutMs: COMMAND_BODY_TIMEOUT_MS,
    maxUnsentBytes: MAX_UNSENT_EVENT_BYTES,
    ...options.limits,
  }
  const page = servePage(await loadAppScript())
  const recording = record(agent)
  const streams = new Set<() => void>()
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    setGuardHeaders(res)
    const url = requestTarget(req.url)
    if (url === undefined)
      return reply(res, 400, { error: 'the request target is not a path on this server' })
    const hostName = (req.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '')
    if (options.token === undefined && !LOOPBACK.has(hostName))
      return reply(res, 403, { error: 'loopback only' })
    const given = url.searchParams.get('token') ?? req.headers.authorization?.replace(/^Bearer /, '') ?? ''
    if (options.token !== undefined && !sameSecret(given, options.token))
      return reply(res, 401, { error: 'a token is required' })
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      return res.end(page)
    }
    if (req.method === 'GET' && url.pathname === '/events') {
      const stop = streamTo(res, agent, recording, limits.maxUnsentBytes)
      streams.add(stop)
      return req.on('close', () => {
        stop()
        streams.delete(stop)
      })
    }
    if (req.method === 'POST' && url.pathname.startsWith('/api/'))
      return command(req, res, url.pathname.slice(5))
    reply(res, 404, { error: 'not found' })
  }
  const command = (req: IncomingMessage, res: ServerResponse, name: string) => {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return reply(res, 415, { error: 'commands are JSON (content-type: application/json)' }, true)
    readCommandBody(req, { maxBytes: limits.maxBodyBytes, timeoutMs: limits.bodyTimeoutMs }).then(
      (body) => {
        try {
          reply(res, 200, runCommand(agent, name, body))
        } catch (error) {
          reply(res, refusedStatus(error), { error: errorText(error) })
        }
      },
      (error: CommandBodyError) => reply(res, error.status, { error: error.message }, error.status !== 400),
    )
  }
  // A request this code cannot answer is a bug, not a reason for the whole page to go down.
  const server = createServer((req, res) => {
    try {
      handle(req, res)
    } catch (error) {
      if (res.headersSent) res.destroy()
      else reply(res, 500, { error: errorText(error) })
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve)
  })
  const { address, port } = server.address() as AddressInfo
  const shown = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${shown}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stop of streams) stop()
        recording.stop()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
