/**
 * A child process for test/openai/timeouts.test.ts: three requests against a server in this
 * process (one that stalls and hits idleTimeoutMs, one that completes, one aborted mid-stream),
 * each with a ten-minute timeout left pending on the other wait; then the server closes and the
 * process must exit on its own. A timer that outlived its request would keep it alive.
 *
 * Run as `node --import tsx test/support/children/timeoutChild.ts`; prints one JSON line per request.
 */
import { from, lastValueFrom, toArray } from 'rxjs'
import type { ModelRequest } from '../../../src/index.js'
import { openaiModel } from '../../../src/openai.js'
import { chunk, closeServers, event, inTurn, serve, sse, sseHead } from '../openaiServer.js'

const tenMinutes = 600_000

const request = (signal: AbortSignal): ModelRequest => ({
  agentId: 'child',
  turn: 1,
  step: 1,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  signal,
})

const run = async (options: { idleTimeoutMs: number; headersTimeoutMs: number }, signal: AbortSignal) => {
  const model = openaiModel({ baseURL: server.baseURL, model: 'm', ...options })
  return lastValueFrom(from(model(request(signal))).pipe(toArray())).then(
    (events) => ({ events }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  )
}

const stall = (res: import('node:http').ServerResponse) => {
  sseHead(res)
  res.write(event(chunk({ content: 'Hello' })))
}
const server = await serve(inTurn(stall, sse(chunk({ content: 'ok' }, 'stop')), stall))

console.log(
  JSON.stringify(
    await run({ headersTimeoutMs: tenMinutes, idleTimeoutMs: 300 }, new AbortController().signal),
  ),
)
console.log(
  JSON.stringify(
    await run({ headersTimeoutMs: tenMinutes, idleTimeoutMs: tenMinutes }, new AbortController().signal),
  ),
)
const controller = new AbortController()
setTimeout(() => controller.abort('cancelled'), 300)
console.log(
  JSON.stringify(await run({ headersTimeoutMs: tenMinutes, idleTimeoutMs: tenMinutes }, controller.signal)),
)
await closeServers()
