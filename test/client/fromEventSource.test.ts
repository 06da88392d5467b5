import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lastValueFrom, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { fromEventSource } from '../../src/client.js'
import { NodeEventSource } from '../support/nodeEventSource.js'

/**
 * `fromEventSource` against a real local server whose streams open and end at once: a connection
 * that delivers no event is a failed one, so `maxRetries` ends the Observable instead of retrying
 * forever.
 */
let server: Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
  server = undefined
})

/** A server whose `n`th stream (from 1) sends one `tick` first when `delivers(n)`, then ends. */
const serveStreams = async (delivers: (n: number) => boolean) => {
  const served = { connections: 0, url: '' }
  server = createServer((_req, res) => {
    served.connections++
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    if (delivers(served.connections)) res.write(`event: tick\ndata: {"n":${served.connections}}\n\n`)
    res.end()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`
  return served
}

const options = { events: ['tick'], retryDelay: 0, EventSource: NodeEventSource }

describe('fromEventSource: maxRetries', () => {
  it('a connection that opens and closes without an event counts toward maxRetries', async () => {
    const served = await serveStreams(() => false)
    const seen: string[] = []
    const stream$ = fromEventSource(served.url, { ...options, maxRetries: 3 })
    await expect(
      lastValueFrom(stream$.pipe(toArray()), { defaultValue: [] }).then(
        () => 'completed',
        (error: Error) => {
          seen.push(error.message)
          return 'errored'
        },
      ),
    ).resolves.toBe('errored')
    // The first connection and three retries.
    expect(served.connections).toBe(4)
    expect(seen[0]).toMatch(/dropped/)
  }, 30_000)

  it('an event received starts the count of failures again', async () => {
    // Connections 2, 4 and 6 deliver a tick and then drop, and 3 and 5 fail: never more than two
    // failures in a row. From 7 on none delivers: 6 drops, 7 and 8 are its two retries, and the
    // third failure in a row (8's) ends it.
    const served = await serveStreams((n) => n <= 6 && n % 2 === 0)
    const ticks: unknown[] = []
    const result = new Promise<string>((resolve) =>
      fromEventSource<{ n: number }>(served.url, { ...options, maxRetries: 2 }).subscribe({
        next: (event) => {
          if (event.type === 'tick') ticks.push(event.data.n)
        },
        error: () => resolve('errored'),
        complete: () => resolve('completed'),
      }),
    )
    await expect(result).resolves.toBe('errored')
    expect(ticks).toEqual([2, 4, 6])
    expect(served.connections).toBe(8)
  }, 30_000)
})

describe('fromEventSource: its options', () => {
  it('refuses a maxRetries or a retryDelay that is no count of retries or of milliseconds', () => {
    expect(() => fromEventSource('/sse', { maxRetries: -1 })).toThrow(/maxRetries must be a whole number/)
    expect(() => fromEventSource('/sse', { maxRetries: Number.NaN })).toThrow(TypeError)
    expect(() => fromEventSource('/sse', { retryDelay: -5 })).toThrow(/retryDelay must be milliseconds/)
  })

  it('no EventSource, or one that refuses the URL, ends the stream at once instead of retrying forever', async () => {
    const missing = { events: ['tick'], retryDelay: 0 }
    const saved = (globalThis as { EventSource?: unknown }).EventSource
    delete (globalThis as { EventSource?: unknown }).EventSource
    try {
      await expect(lastValueFrom(fromEventSource('/sse', missing))).rejects.toThrow(/no EventSource here/)
    } finally {
      if (saved) (globalThis as { EventSource?: unknown }).EventSource = saved
    }
    let tries = 0
    class Refusing {
      constructor(url: string) {
        tries++
        throw new SyntaxError(`not a URL: ${url}`)
      }
    }
    const refused = fromEventSource('::', { ...options, EventSource: Refusing as never })
    await expect(lastValueFrom(refused)).rejects.toThrow(/cannot open ::/)
    expect(tries).toBe(1)
  })
})
