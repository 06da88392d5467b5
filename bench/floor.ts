/**
 * The practical floor for the benchmarks: a minimal hand-written imperative loop with the
 * same delivery semantics as steerable for these workloads, and nothing else. Not a benchmark
 * script (bench/run.ts does not run it); the benchmarks drive it beside steerable and the peer.
 *
 * - `followup(text)` mints an id, queues `{id, content, source}` (an array with a head index: O(1)
 *   at both ends, compacted now and then), tells the listeners, and, when idle, schedules the
 *   wake after the current call stack (so a burst of sends sees one wake, like steerable's R6).
 * - The driver claims the FIFO head, appends the user message to the transcript, calls the model
 *   with the transcript by reference, appends the answer, and goes on until the queue is empty.
 * - No streams, no validation, no freezing, no copies, no store.
 */

export type FloorBlock = { readonly type: 'text'; readonly text: string }
export type FloorMessage = {
  readonly id?: number
  readonly role: 'user' | 'assistant'
  readonly content: readonly FloorBlock[]
  readonly source?: { readonly kind: string }
}
export type FloorEvent = { readonly type: 'text'; readonly text: string } | { readonly type: 'finish' }
export type FloorRequest = { readonly turn: number; readonly messages: readonly FloorMessage[] }
export type FloorModel = (request: FloorRequest) => readonly FloorEvent[] | Promise<readonly FloorEvent[]>
export type FloorListener = (event: { readonly type: string; readonly message?: FloorMessage }) => void

const USER = Object.freeze({ kind: 'user' })

export class Floor {
  private queue: (FloorMessage | undefined)[] = []
  private head = 0
  private readonly transcript: FloorMessage[] = []
  private readonly listeners: FloorListener[] = []
  private readonly idleWaiters: (() => void)[] = []
  private nextId = 1
  private turn = 0
  private running = false
  private wakeScheduled = false

  constructor(private readonly model: FloorModel) {}

  get size(): number {
    return this.queue.length - this.head
  }

  get messages(): readonly FloorMessage[] {
    return this.transcript
  }

  subscribe(listener: FloorListener): void {
    this.listeners.push(listener)
  }

  /** Queues `text` as one text block, or the blocks given (the two-block accept row). */
  followup(text: string, content: readonly FloorBlock[] = [{ type: 'text', text }]): number {
    const id = this.nextId++
    const message: FloorMessage = { id, role: 'user', content, source: USER }
    this.queue.push(message)
    this.emit('enqueue', message)
    if (!this.running && !this.wakeScheduled) {
      this.wakeScheduled = true
      queueMicrotask(() => {
        this.wakeScheduled = false
        void this.drive()
      })
    }
    return id
  }

  /** Drops everything queued (a cancel that discards the inbox). */
  clear(): void {
    this.queue = []
    this.head = 0
  }

  whenIdle(): Promise<void> {
    if (!this.running && !this.wakeScheduled && this.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  private emit(type: string, message?: FloorMessage): void {
    for (const listener of this.listeners) listener(message ? { type, message } : { type })
  }

  private shift(): FloorMessage | undefined {
    if (this.head === this.queue.length) return undefined
    const message = this.queue[this.head]
    this.queue[this.head++] = undefined
    // Compact once the consumed prefix is half the array: amortised O(1) per item.
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
    return message
  }

  private async drive(): Promise<void> {
    if (this.running) return
    this.running = true
    this.emit('running')
    for (let message = this.shift(); message; message = this.shift()) {
      this.emit('dequeue', message)
      this.transcript.push(message)
      const turn = ++this.turn
      const answer = this.model({ turn, messages: this.transcript })
      const events = answer instanceof Promise ? await answer : answer
      let text = ''
      for (const event of events) if (event.type === 'text') text += event.text
      this.transcript.push({ role: 'assistant', content: [{ type: 'text', text }] })
      this.emit('settled')
    }
    this.running = false
    this.emit('idle')
    for (const resolve of this.idleWaiters.splice(0)) resolve()
  }
}
