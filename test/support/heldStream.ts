/**
 * A streamed answer whose pace the caller decides, for the cut tests (R68, R69) and the interrupt
 * benchmark: a handler for `serve` (openaiServer.ts) that writes the answer's head and then
 * either waits for `write` (a test decides when each chunk leaves) or `flood`s chunks as fast as
 * the socket takes them. It never ends the response, so a `close` of it is the client's doing.
 */
import type { ServerResponse } from 'node:http'
import type { Handler } from './openaiServer.js'

export type HeldStream = {
  /** For `serve` / `inTurn`: writes `head` and holds the response open. */
  readonly handler: Handler
  /** Resolves once the request arrived and the head was written. */
  readonly opened: Promise<void>
  /**
   * Resolves when the connection closes, with the time (`performance.now()`) it did and whether
   * the server had ended the response by then (never, unless the test ends it).
   */
  readonly closed: Promise<{ readonly at: number; readonly endedByServer: boolean }>
  /** Writes one chunk now. Throws before the request arrived. */
  readonly write: (chunk: string) => void
  /**
   * Writes `chunkAt(i)` for i = 0, 1, 2 … while the socket takes them (waiting for `drain` when
   * its buffer is full), until the connection closes or `limit` chunks were written.
   */
  readonly flood: (chunkAt: (i: number) => string, limit: number) => void
  /** How many chunks `write` and `flood` have written. */
  readonly written: () => number
}

export const heldStream = (head: (res: ServerResponse) => void): HeldStream => {
  let res: ServerResponse | undefined
  let count = 0
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  let close!: (value: { at: number; endedByServer: boolean }) => void
  const closed = new Promise<{ at: number; endedByServer: boolean }>((resolve) => {
    close = resolve
  })
  const handler: Handler = (r) => {
    res = r
    r.on('close', () => close({ at: performance.now(), endedByServer: r.writableEnded }))
    head(r)
    open()
  }
  const target = (): ServerResponse => {
    if (!res) throw new Error('heldStream: no request has arrived yet')
    return res
  }
  const write = (chunk: string) => {
    target().write(chunk)
    count++
  }
  const flood = (chunkAt: (i: number) => string, limit: number) => {
    const r = target()
    const pump = (): void => {
      while (count < limit && !r.destroyed) {
        const more = r.write(chunkAt(count))
        count++
        if (!more) {
          r.once('drain', pump)
          return
        }
      }
    }
    pump()
  }
  return { handler, opened, closed, write, flood, written: () => count }
}
