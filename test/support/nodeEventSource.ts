import { type ClientRequest, get } from 'node:http'
import { createParser } from 'eventsource-parser'
import type { EventSourceLike } from '../../src/client/fromEventSource.js'

type Listener = (event: { data?: unknown; lastEventId?: string }) => void

const OPEN = 1
const CLOSED = 2

/**
 * The part of the browser's `EventSource` that `fromEventSource` uses, over node:http (Node 20 has
 * no `EventSource`): `open` once the response starts, each named event, and `error` when the
 * response ends or fails. Like `fromEventSource` asks, it never reconnects by itself.
 */
export class NodeEventSource implements EventSourceLike {
  readyState = 0
  readonly #listeners = new Map<string, Listener[]>()
  readonly #request: ClientRequest

  constructor(url: string) {
    const parser = createParser({
      onEvent: (event) =>
        this.#emit(event.event ?? 'message', { data: event.data, lastEventId: event.id ?? '' }),
    })
    this.#request = get(url, (res) => {
      if (res.statusCode !== 200) return this.#fail()
      this.readyState = OPEN
      this.#emit('open', {})
      res.setEncoding('utf8')
      res.on('data', (text: string) => parser.feed(text))
      res.on('end', () => this.#fail())
      res.on('error', () => this.#fail())
    })
    this.#request.on('error', () => this.#fail())
  }

  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener])
  }

  close(): void {
    this.readyState = CLOSED
    this.#request.destroy()
  }

  #fail(): void {
    if (this.readyState === CLOSED) return
    this.readyState = CLOSED
    this.#emit('error', {})
  }

  #emit(type: string, event: { data?: unknown; lastEventId?: string }): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event)
  }
}
