/**
 * A real HTTP server on 127.0.0.1 that speaks (or fails to speak) the Chat Completions streaming
 * protocol, for the `steerable/openai` tests: it records each request and answers with a handler.
 * Call `closeServers` in `afterEach`.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Received = {
  readonly method: string | undefined
  readonly url: string | undefined
  readonly headers: IncomingHttpHeaders
  readonly body: unknown
}
export type Handler = (res: ServerResponse, request: Received, index: number) => void

export type TestServer = {
  readonly baseURL: string
  readonly received: Received[]
  /**
   * Resolves when the connection of request `index` (0-based) closes; before any request was read,
   * when the `index`th connection closes (the client gave up before sending it whole).
   */
  readonly closed: (index: number) => Promise<void>
}

const servers: Server[] = []

/** Closes every server opened since the last call (and its connections). */
export const closeServers = async (): Promise<void> => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

/** Stops the last server opened, so that its port refuses connections. */
export const stopLastServer = async (): Promise<void> => {
  const server = servers.pop()
  await new Promise((resolve) => server?.close(resolve))
}

/** A server on 127.0.0.1 (port 0) that records each request and answers with `handler`. */
export const serve = async (handler: Handler): Promise<TestServer> => {
  const received: Received[] = []
  const closes: Promise<void>[] = []
  const server = createServer((req, res) => {
    const index = received.length
    const chunks: Buffer[] = []
    closes[index] = new Promise((resolve) => res.on('close', () => resolve()))
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const request = { method: req.method, url: req.url, headers: req.headers, body: JSON.parse(text) }
      received.push(request)
      handler(res, request, index)
    })
  })
  // A client that gives up early (a short headers timeout on a loaded machine) may close its
  // connection before the server has read the request: the connection's close counts then.
  const connections: { promise: Promise<void>; resolve: () => void }[] = []
  const connectionAt = (index: number) => {
    let slot = connections[index]
    if (slot === undefined) {
      let resolve = () => {}
      const promise = new Promise<void>((r) => {
        resolve = r
      })
      slot = { promise, resolve }
      connections[index] = slot
    }
    return slot
  }
  let accepted = 0
  server.on('connection', (socket) => {
    const slot = connectionAt(accepted++)
    socket.on('close', () => slot.resolve())
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const closed = (index: number) => closes[index] ?? connectionAt(index).promise
  return { baseURL: `http://127.0.0.1:${port}/v1`, received, closed }
}

/** Answers request i with handler i (the last one for any later request). */
export const inTurn =
  (...handlers: Handler[]): Handler =>
  (res, request, index) =>
    handlers[Math.min(index, handlers.length - 1)]?.(res, request, index)

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** One `chat.completion.chunk` with a delta for choice 0. */
export const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'test-model',
  choices: [{ index: 0, delta, logprobs: null, finish_reason }],
})

/** The final usage chunk that `stream_options.include_usage` asks for. */
export const usage = (prompt_tokens: number, completion_tokens: number) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'test-model',
  choices: [],
  usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
})

export const sseHead = (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })

export const event = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`

/** Answers with these chunks as server-sent events, then `[DONE]`, then ends. */
export const sse =
  (...chunks: unknown[]): Handler =>
  (res) => {
    sseHead(res)
    for (const c of chunks) res.write(event(c))
    res.end(event('[DONE]'))
  }

/** A complete answer with this text. */
export const answer = (text: string) =>
  sse(chunk({ role: 'assistant', content: text }), chunk({}, 'stop'), usage(1, 1))
