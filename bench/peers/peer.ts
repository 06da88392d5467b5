/**
 * Adapter to the peer library, `@mariozechner/pi-agent-core` (installed in bench/peers by
 * `npm ci --prefix bench/peers`, see bench/lib/peers.ts) for the side-by-side benchmarks.
 *
 * The peer is loaded with a computed specifier and typed here minimally (only what the benchmarks
 * use, as its d.ts declares it), so `tsc -p .` type-checks bench/ without the peer installed.
 *
 * - `Agent({streamFn, followUpMode})`: `followUp(message)` queues; `prompt(message)` runs a turn
 *   and, after it, the queued follow-ups: one per turn in `one-at-a-time` mode (its default), all
 *   of them as one batch before a single answer in `all` mode.
 * - The `streamFn` answers at once: an `AssistantMessageEventStream` holding one `done` event with
 *   a one-block text answer; a held request waits for `release()` first.
 */

/** A user message as the peer takes it (pi-ai's `UserMessage`). */
export type PeerUserMessage = {
  readonly role: 'user'
  readonly content: readonly { readonly type: 'text'; readonly text: string }[]
  readonly timestamp: number
}
export type PeerQueueMode = 'one-at-a-time' | 'all'

type PeerStream = { push(event: unknown): void; end(result?: unknown): void }
type PeerContext = { readonly messages: readonly unknown[] }
type PeerStreamFn = (
  model: unknown,
  context: PeerContext,
  options?: unknown,
) => PeerStream | Promise<PeerStream>
type PeerAgent = {
  followUp(message: PeerUserMessage): void
  prompt(message: PeerUserMessage): Promise<void>
  waitForIdle(): Promise<void>
  clearFollowUpQueue(): void
  abort(): void
  reset(): void
  readonly state: { readonly messages: readonly unknown[] }
}
type AgentModule = {
  Agent: new (options: { streamFn: PeerStreamFn; followUpMode: PeerQueueMode }) => PeerAgent
}
type AiModule = { createAssistantMessageEventStream(): PeerStream }

export type PeerApi = { readonly agentCore: AgentModule; readonly ai: AiModule; readonly version: string }

const load = async <T>(specifier: string): Promise<T> => (await import(specifier)) as T

/** Loads the peer from bench/peers/node_modules, or `undefined` when it is not installed. */
export const loadPeer = async (): Promise<PeerApi | undefined> => {
  try {
    const agentCore = await load<AgentModule>('@mariozechner/pi-agent-core')
    const ai = await load<AiModule>('@mariozechner/pi-ai')
    const { readFileSync } = await import('node:fs')
    const pkg = JSON.parse(
      readFileSync(
        new URL('./node_modules/@mariozechner/pi-agent-core/package.json', import.meta.url),
        'utf8',
      ),
    ) as { version: string }
    return { agentCore, ai, version: pkg.version }
  } catch {
    return undefined
  }
}

const ZERO_USAGE = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }),
})

export type PeerOptions = {
  readonly mode: PeerQueueMode
  /** Called on every model request (once per turn in these workloads), with the request's message count. */
  readonly onModelCall?: (messages: number) => void
}

/** One peer agent, driven the way the benchmarks drive steerable and the floor. */
export class PeerHarness {
  private readonly agent: PeerAgent
  private held: (() => void) | undefined
  private holding = false
  private called: (() => void) | undefined

  constructor(
    private readonly api: PeerApi,
    options: PeerOptions,
  ) {
    const streamFn: PeerStreamFn = (_model, context) => {
      options.onModelCall?.(context.messages.length)
      const stream = this.api.ai.createAssistantMessageEventStream()
      const answer = () =>
        stream.push({
          type: 'done',
          reason: 'stop',
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: 'ok' }],
            api: 'bench',
            provider: 'bench',
            model: 'bench',
            usage: ZERO_USAGE,
            stopReason: 'stop',
            timestamp: Date.now(),
          },
        })
      const called = this.called
      this.called = undefined
      called?.()
      if (!this.holding) {
        answer()
        return stream
      }
      this.holding = false
      return new Promise<PeerStream>((resolve) => {
        this.held = () => {
          answer()
          resolve(stream)
        }
      })
    }
    this.agent = new api.agentCore.Agent({ streamFn, followUpMode: options.mode })
  }

  static message(text: string): PeerUserMessage {
    return { role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() }
  }

  send(text: string): void {
    this.agent.followUp(PeerHarness.message(text))
  }

  /** A followup of two text blocks (the same message shape as steerable's `sendBlocks`). */
  sendBlocks(text: string): void {
    this.agent.followUp({
      role: 'user',
      content: [
        { type: 'text', text },
        { type: 'text', text },
      ],
      timestamp: Date.now(),
    })
  }

  turn(text: string): Promise<void> {
    return this.agent.prompt(PeerHarness.message(text))
  }

  /** Starts a turn whose answer waits for `release()`; resolves once the model was asked. */
  hold(text: string): Promise<void> {
    this.holding = true
    const called = new Promise<void>((resolve) => {
      this.called = resolve
    })
    void this.agent.prompt(PeerHarness.message(text))
    return called
  }

  release(): void {
    const held = this.held
    this.held = undefined
    held?.()
  }

  whenIdle(): Promise<void> {
    return this.agent.waitForIdle()
  }

  discard(): void {
    this.agent.clearFollowUpQueue()
  }

  get transcriptLength(): number {
    return this.agent.state.messages.length
  }

  dispose(): Promise<void> {
    this.agent.clearFollowUpQueue()
    this.agent.abort()
    return this.agent.waitForIdle()
  }
}
