import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lastValueFrom, Subject, VirtualTimeScheduler } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import {
  DEFAULT_MAX_RETRIES,
  EventSourceGaveUpError,
  EventSourceMissingError,
  type FromEventSourceOptions,
  fromEventSource,
} from '../../src/client.js'
import { InvalidInputError } from '../../src/index.js'
import { NodeEventSource } from '../support/nodeEventSource.js'

/**
 * `fromEventSource` against a real local server whose streams open and end at once (R88): a
 * connection that delivers no event is a failed one, so `maxRetries` ends the Observable with a
 * typed error instead of retrying forever.
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

const options = { events: ['tick'], retryDelay: 0, eventSource: NodeEventSource }

/** How the stream ended: its error, or `'completed'`. */
const ending = (stream$: ReturnType<typeof fromEventSource>): Promise<unknown> =>
  new Promise((resolve) => stream$.subscribe({ error: resolve, complete: () => resolve('completed') }))

describe('fromEventSource: maxRetries', () => {
  it('R88: a connection that opens and closes without an event counts toward maxRetries; giving up names the attempts and the last cause', async () => {
    const served = await serveStreams(() => false)
    const error = await ending(fromEventSource(served.url, { ...options, maxRetries: 3 }))
    // The first connection and three retries.
    expect(served.connections).toBe(4)
    expect(error).toBeInstanceOf(EventSourceGaveUpError)
    const gaveUp = error as EventSourceGaveUpError
    expect(gaveUp.attempts).toBe(4)
    expect(gaveUp.url).toBe(served.url)
    expect((gaveUp.cause as Error).message).toMatch(/dropped/)
    expect(gaveUp.message).toMatch(/gave up on .* after 4 failed connections in a row \(the last: .*dropped/)
  }, 30_000)

  it('R88: an event received starts the count of failures again', async () => {
    // Connections 2, 4 and 6 deliver a tick and then drop, and 3 and 5 fail: never more than two
    // failures in a row. From 7 on none delivers: 6 drops, 7 and 8 are its two retries, and the
    // third failure in a row (8's) ends it.
    const served = await serveStreams((n) => n <= 6 && n % 2 === 0)
    const ticks: unknown[] = []
    const result = new Promise<unknown>((resolve) =>
      fromEventSource<{ n: number }>(served.url, { ...options, maxRetries: 2 }).subscribe({
        next: (event) => {
          if (event.type === 'tick') ticks.push(event.data.n)
        },
        error: resolve,
        complete: () => resolve('completed'),
      }),
    )
    const error = await result
    expect(error).toBeInstanceOf(EventSourceGaveUpError)
    expect((error as EventSourceGaveUpError).attempts).toBe(3)
    expect(ticks).toEqual([2, 4, 6])
    expect(served.connections).toBe(8)
  }, 30_000)

  it('R88: without maxRetries it gives up after DEFAULT_MAX_RETRIES (10) failed retries', async () => {
    const served = await serveStreams(() => false)
    const error = await ending(fromEventSource(served.url, options))
    expect(DEFAULT_MAX_RETRIES).toBe(10)
    expect(served.connections).toBe(DEFAULT_MAX_RETRIES + 1)
    expect((error as EventSourceGaveUpError).attempts).toBe(DEFAULT_MAX_RETRIES + 1)
  }, 30_000)

  it('R88: the wait between connections is scheduled on the scheduler given, not on the clock', async () => {
    // An hour between connections: the test ends only because it flushes virtual time.
    const served = await serveStreams(() => false)
    const scheduler = new VirtualTimeScheduler()
    const closed = new Subject<void>()
    class Watched extends NodeEventSource {
      override close() {
        super.close()
        closed.next()
      }
    }
    // A dropped connection is closed, then the retry's wait is scheduled: flush it right after.
    closed.subscribe(() => queueMicrotask(() => scheduler.flush()))
    const stream$ = fromEventSource(served.url, {
      ...options,
      eventSource: Watched,
      retryDelay: 3_600_000,
      maxRetries: 2,
      scheduler,
    })
    const error = await ending(stream$)
    expect((error as EventSourceGaveUpError).attempts).toBe(3)
    expect(served.connections).toBe(3)
    expect(scheduler.now()).toBe(2 * 3_600_000)
  }, 30_000)
})

describe('fromEventSource: its options', () => {
  it('R88: refuses bad options at call time with InvalidInputError naming the option', () => {
    const refuses = (bad: FromEventSourceOptions, path: RegExp) => {
      let thrown: unknown
      try {
        fromEventSource('/sse', bad)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(InvalidInputError)
      expect((thrown as Error).message).toMatch(path)
    }
    refuses({ maxRetries: -1 }, /options\.maxRetries: expected a whole number ≥ 0 or Infinity, got -1/)
    refuses({ maxRetries: 1.5 }, /options\.maxRetries/)
    refuses({ maxRetries: Number.NaN }, /options\.maxRetries/)
    refuses({ retryDelay: -5 }, /options\.retryDelay: expected milliseconds ≥ 0/)
    refuses({ events: 'tick' as never }, /options\.events/)
    refuses({ eventSource: 'EventSource' as never }, /options\.eventSource/)
    expect(() => fromEventSource('/sse', { maxRetries: Number.POSITIVE_INFINITY })).not.toThrow()
  })

  it('R88: with no global EventSource and no eventSource option it errors at once, saying what to pass', () => {
    const saved = (globalThis as { EventSource?: unknown }).EventSource
    delete (globalThis as { EventSource?: unknown }).EventSource
    let error: unknown
    try {
      // Synchronously, on subscribe: no connection is tried and nothing waits to retry.
      fromEventSource('/sse', { events: ['tick'] }).subscribe({ error: (e) => (error = e) })
    } finally {
      if (saved) (globalThis as { EventSource?: unknown }).EventSource = saved
    }
    expect(error).toBeInstanceOf(EventSourceMissingError)
    expect((error as Error).message).toMatch(
      /no global EventSource.*pass one.*npm i eventsource.*eventSource: EventSource/,
    )
  })

  it('an EventSource that refuses the URL ends the stream at once instead of retrying forever', async () => {
    let tries = 0
    class Refusing {
      constructor(url: string) {
        tries++
        throw new SyntaxError(`not a URL: ${url}`)
      }
    }
    const refused = fromEventSource('::', { ...options, eventSource: Refusing as never })
    await expect(lastValueFrom(refused)).rejects.toThrow(/cannot open ::/)
    expect(tries).toBe(1)
  })

  it("R88: the platform's EventSource fits the eventSource option", () => {
    // The browser's (and Node 22's, and the `eventsource` package's) constructor, by type.
    // Type-checked by `tsc`; Node 20 has no global EventSource to run it with.
    const fits = (platform: typeof EventSource): FromEventSourceOptions => ({ eventSource: platform })
    expect(fits).toBeTypeOf('function')
  })
})
