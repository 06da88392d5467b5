import type { Observable } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import { InvalidInputError, ToolCallNotRunning } from '../contracts/errors.js'
import type {
  AgentCancelCause,
  AgentMessageId,
  CancelOptions,
  MessageSource,
  SendInput,
} from '../contracts/messages.js'
import type { RemoteApplied, RemoteEdit, RemoteEditApplied, RemoteSend } from '../contracts/remote.js'
import { selectWakingHumanPrompts } from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import type { Driver } from '../runtime/driver.js'
import type { AgentExtensions } from '../runtime/extensions.js'
import type { AddedPromptSubmit } from '../runtime/hookSet.js'
import { acceptRemote } from './acceptRemote.js'
import type { AgentParts } from './agentParts.js'
import { pendingCall } from './humanCalls.js'
import { refusalError } from './refusalError.js'
import { applyRemoteRollback } from './remoteRollback.js'

/**
 * An agent's library-internal seams (`extensionsOf(agent)`), made when a companion asks for them:
 * the goal controller's hook, and a PostgreSQL owner's remote requests and release.
 */
export class Extensions implements AgentExtensions {
  readonly #agent: Agent
  readonly #driver: Driver<Agent>
  readonly #parts: AgentParts

  constructor(agent: Agent, driver: Driver<Agent>, parts: AgentParts) {
    this.#agent = agent
    this.#driver = driver
    this.#parts = parts
  }

  get snapshots$(): Observable<DeliveryState> {
    return this.#driver.snapshots$
  }

  /** How many times the agent's engine was built (tests read it to see that releases happen). */
  get engineBuilds(): number {
    return this.#driver.engineBuilds
  }

  addPromptSubmit(hook: AddedPromptSubmit<Agent>): () => void {
    return this.#parts.hooks.add(hook)
  }

  wakingHumanPrompts(): number {
    return selectWakingHumanPrompts(this.#driver.getSnapshot())
  }

  acceptRemote(send: RemoteSend): RemoteApplied {
    const driver = this.#driver
    const maxQueued = this.#parts.maxQueued
    return acceptRemote(
      {
        finished: driver.finished,
        maxBlockBytes: this.#parts.maxBlockBytes,
        knows: (id) => driver.outcomes.knows(id),
        checkPolicy: (options) => {
          const refusal = driver.check({ kind: 'send', options, maxQueued })
          if (refusal !== undefined) throw refusalError('send()', refusal)
        },
        enter: (accepted) => driver.send(accepted),
        refuse: (id, error) => driver.send({ type: 'refuse', id, error }),
      },
      send,
    )
  }

  handOver(): void {
    this.#parts.transcript.handOver()
  }

  /**
   * The owner's side of a remote edit (R55, R58): it goes through the agent's own operation, so it
   * is one input of the same ordered pipeline as everything else (V3), validated again (R1, R2),
   * and decided by the agent's state when it is processed (R43–R46: an item that is no longer
   * waiting is left alone; R25, R26 for a cancel; R62 for a decision; R77 for a rollback, which
   * waits for an idle agent). Called at top level, each operation returns
   * once its input was processed, so what it journaled is buffered when this returns. An agent
   * that stopped (disposed or released) applies nothing: the edit stays for the next owner.
   */
  applyRemoteEdit(edit: RemoteEdit): RemoteEditApplied {
    if (this.#driver.finished) return 'stopped'
    const agent = this.#agent
    const id = ('id' in edit ? edit.id : '') as AgentMessageId
    switch (edit.kind) {
      case 'remove':
        agent.remove(id)
        break
      case 'replace':
        agent.replace(id, edit.input as SendInput)
        break
      case 'move':
        agent.move(id, edit.index)
        break
      case 'promote':
        agent.promote(id)
        break
      case 'cancel':
        agent.cancel(edit.cause as AgentCancelCause, edit.options as CancelOptions)
        break
      case 'decide':
        return this.#decide(edit)
      case 'cancel-call':
        return this.#cancelCall(edit)
      case 'rollback':
        return applyRemoteRollback(agent, this.#driver, edit)
    }
    return 'applied'
  }

  /**
   * A remote decision (R65): the agent's own `approve` or `deny` when the call is pending now.
   * Anything else must not throw in the owner: the request settles refused under its own id,
   * with the error the local call would have thrown, so the client that made it can read why.
   */
  #decide(edit: Extract<RemoteEdit, { kind: 'decide' }>): RemoteEditApplied {
    const call = edit.decision === 'approved' ? 'approve()' : 'deny()'
    const found = pendingCall(this.#driver, call, edit.callId)
    if (found instanceof Error) {
      const { name, message } = found
      this.#driver.send({ type: 'refuse', id: edit.request as AgentMessageId, error: { name, message } })
      return 'refused'
    }
    const { decision, reason } = edit
    const source = edit.source as MessageSource
    this.#driver.send({ type: 'decide', ...found.at, callId: found.callId, decision, reason, source })
    return 'applied'
  }

  /**
   * A remote `cancelToolCall` (R71): the agent's own call. When it returns `false` (the call is
   * not running, or settled), the request settles refused under its own id, so the client that
   * made it reads `false` as a local caller would.
   */
  #cancelCall(edit: Extract<RemoteEdit, { kind: 'cancel-call' }>): RemoteEditApplied {
    const options = edit.reason === undefined ? {} : { reason: edit.reason }
    let error: Error
    try {
      if (this.#agent.cancelToolCall(edit.callId, options)) return 'applied'
      error = new ToolCallNotRunning('cancelToolCall()', edit.callId)
    } catch (thrown) {
      // An id two unsettled calls share: refused as the local call throws, never thrown here.
      if (!(thrown instanceof InvalidInputError)) throw thrown
      error = thrown
    }
    const { name, message } = error
    this.#driver.send({ type: 'refuse', id: edit.request as AgentMessageId, error: { name, message } })
    return 'refused'
  }

  release(): Promise<void> {
    if (!this.#driver.finished) this.#driver.send({ type: 'dispose', keepInbox: true })
    return this.#driver.completed()
  }
}
