/**
 * Driving an interrupting steer (R68) into an answer that a real HTTP server streams
 * (`heldStream`), for the adapter tests of R69: each chunk is written only after the agent
 * published the previous one's delta, so what the agent has seen at the steer is known exactly,
 * whatever the machine's load.
 */
import { from, tap } from 'rxjs'
import type { Agent, AgentMessageId, ModelAdapter } from '../../src/index.js'
import type { HeldStream } from './heldStream.js'

/**
 * The adapter's events, counted: those that the requests already made when `mark()` was called
 * emitted after it (a later request, the next step's, is not counted).
 */
export const counted = (inner: ModelAdapter) => {
  let marked = false
  let after = 0
  const model: ModelAdapter = (request) => {
    const before = !marked
    return from(inner(request)).pipe(
      tap(() => {
        if (marked && before) after++
      }),
    )
  }
  return {
    model,
    mark: () => {
      marked = true
    },
    after: () => after,
  }
}

/** Resolves `when(n)` once the agent has published its n-th delta (counted from this call). */
export const deltaCounter = (agent: Agent) => {
  let seen = 0
  const waiters: { n: number; resolve: () => void }[] = []
  agent.events$.subscribe((e) => {
    if (e.type !== 'agent/stream/delta') return
    seen++
    for (const w of waiters.filter((x) => x.n <= seen)) {
      waiters.splice(waiters.indexOf(w), 1)
      w.resolve()
    }
  })
  return {
    when: (n: number): Promise<void> =>
      n <= seen ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
  }
}

export type SteerMidStream = {
  readonly agent: Agent
  readonly held: HeldStream
  /** The text of delta i (0-based), and the server's chunk that carries it. */
  readonly textAt: (i: number) => string
  readonly chunkOf: (text: string) => string
  /** Chunks the agent sees, one at a time, before the steer. */
  readonly seen: number
  /** Chunks written right before the steer, in the same tick: on the wire, unread. */
  readonly unread: number
  /** Called right before the steer (to mark counters). */
  readonly onSteer?: () => void
}

/**
 * Streams `seen` chunks, each once the agent published the previous one's delta; then writes
 * `unread` more and steers `{interrupt: true}` in the same tick, before the client can have read
 * them. Returns the steer's id.
 */
export const steerMidStream = async (run: SteerMidStream): Promise<AgentMessageId> => {
  const { agent, held, textAt, chunkOf, seen, unread } = run
  const deltas = deltaCounter(agent)
  await held.opened
  for (let i = 0; i < seen; i++) {
    held.write(chunkOf(textAt(i)))
    await deltas.when(i + 1)
  }
  for (let i = seen; i < seen + unread; i++) held.write(chunkOf(textAt(i)))
  run.onSteer?.()
  return agent.steer('Stop there, be brief.', { interrupt: true })
}

export type SteerIntoFlood = {
  readonly agent: Agent
  readonly held: HeldStream
  readonly textAt: (i: number) => string
  readonly chunkOf: (text: string) => string
  /** The steer is sent once the agent has published this many deltas. */
  readonly after: number
  /** The server stops after this many chunks, so a client that never closes fails the test. */
  readonly limit: number
  readonly onSteer?: () => void
}

/**
 * The server writes chunks as fast as the socket takes them; once the agent has published
 * `after` deltas, steers `{interrupt: true}`. How many more it saw before the steer depends on
 * the machine: the caller compares the cut text with the deltas published before the enqueue.
 */
export const steerIntoFlood = async (run: SteerIntoFlood): Promise<AgentMessageId> => {
  const { agent, held, textAt, chunkOf } = run
  const deltas = deltaCounter(agent)
  await held.opened
  held.flood((i) => chunkOf(textAt(i)), run.limit)
  await deltas.when(run.after)
  run.onSteer?.()
  return agent.steer('Stop there, be brief.', { interrupt: true })
}
