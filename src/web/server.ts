import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Agent } from '../contracts/agent.js'
import { errorText } from '../messages/errorText.js'
import { record } from '../timeline/record.js'
import { runCommand } from './api.js'
import { loadAppScript } from './appScript.js'
import { servePage } from './page.js'
import { sameSecret } from './sameSecret.js'
import { streamTo } from './sse.js'

export type ServeOptions = {
  /** Default `127.0.0.1`; any other host needs a `token`. */
  readonly host?: string
  /** Default 0: a free port. */
  readonly port?: number
  /** Required on every request (`?token=` or `Authorization: Bearer`) when set. */
  readonly token?: string
}

export type Served = { readonly url: string; close(): Promise<void> }

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/** Whether `options` may serve: loopback, or another host with a token. A `TypeError` says what to add. */
export const checkServeOptions = (options: ServeOptions): void => {
  const host = options.host ?? '127.0.0.1'
  if (!LOOPBACK.has(host) && !options.token)
    throw new TypeError(
      `serve: --host ${host} lets other machines steer this agent; add --token SECRET (and open the page with ?token=SECRET)`,
    )
}

/**
 * The path and query of a request target that is a path on this server; `undefined` for one the
 * URL parser refuses (`//`) or that names another origin (`//evil.example/`).
 */
const targetOf = (target: string | undefined): URL | undefined => {
  if (target === undefined || !target.startsWith('/')) return undefined
  try {
    const url = new URL(target, BASE)
    return url.origin === BASE ? url : undefined
  } catch {
    return undefined
  }
}
const BASE = 'http://localhost'

/**
 * Serves a page to chat with `agent` and watch its timeline: `GET /` the page, `GET /events` the
 * server-sent events, `POST /api/<command>` the agent's methods. Without a token only loopback
 * Host headers are answered (a page on another site cannot reach it through DNS rebinding), and
 * commands must be JSON (a cross-site form cannot post one without a preflight we never allow).
 */
export const serveAgent = async (agent: Agent, options: ServeOptions = {}): Promise<Served> => {
  checkServeOptions(options)
  const page = servePage(await loadAppScript())
  const recording = record(agent)
  const streams = new Set<() => void>()
  // A request this code cannot answer is a bug, not a reason for the whole page to go down.
  const server = createServer((req, res) => {
    try {
      handle(req, res)
    } catch (error) {
      if (res.headersSent) res.destroy()
      else reply(res, 500, { error: errorText(error) })
    }
  })
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = targetOf(req.url)
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
      const stop = streamTo(res, agent, recording)
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
      return reply(res, 415, { error: 'commands are JSON (content-type: application/json)' })
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      try {
        reply(res, 200, runCommand(agent, name, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')))
      } catch (error) {
        reply(res, 400, { error: errorText(error) })
      }
    })
  }
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

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}
