import { Subscription } from 'rxjs'
import type { Agent } from '../../contracts/agent.js'
import type { RemoteApplied, RemoteEditApplied } from '../../contracts/remote.js'
import { extensionsOf } from '../../runtime/extensions.js'
import { isPendingSend, type PendingRemoteRequest } from '../rows/pendingRemoteRequests.js'
import { editOf } from '../rows/remoteEditRecord.js'
import type { PostgresSessionStore } from './postgresSessionStore.js'

export type RemoteRequestHandlers = {
  readonly applied?: (request: PendingRemoteRequest, result: RemoteApplied | RemoteEditApplied) => void
  readonly failed?: (error: unknown) => void
}

/** Calls a handler of outside code: whatever it throws must not stop the owner's side. */
const tell = <A extends unknown[]>(handler: ((...args: A) => void) | undefined, ...args: A): void => {
  try {
    handler?.(...args)
  } catch {
    // Nothing else to tell.
  }
}

/**
 * The owner's side of remote sends, edits and decisions (R55, R58, R65): hands each request of
 * `store` (those that waited, then each new one as it commits, in journal order, interleaved as
 * they were stored) to `agent`. A send is applied under the sender's id, routed by the agent's
 * window at that moment, and journaled (an `add`, or a `settle` for a refusal), so the next owner
 * applies only what left no trace; an id the agent knows is applied once only. An edit goes
 * through the agent's own operation (remove, replace, move, promote, cancel, approve, deny),
 * decided by its state at that moment; a decision for a call that is not pending then settles
 * refused under its request id, and never throws. `applied` hears each result; a failed read of
 * the journal (or flush) goes to `failed`. When the store fails for good (it lost its lease, R54)
 * the agent stops driving without discarding anything (as `worker.close()` releases a session):
 * what waits stays in the journal for the next owner. Unsubscribe to stop.
 */
export const applyRemoteRequests = (
  agent: Agent,
  store: PostgresSessionStore,
  handlers: RemoteRequestHandlers = {},
): Subscription => {
  const applying = store.remoteRequests$.subscribe({
    next: (request) => applyRemoteRequest(agent, store, request, handlers),
    error: (error: unknown) => tell(handlers.failed, error),
  })
  // Beside the feed, not inside it: a read of the journal that fails when the lease goes (its
  // connection ended with the others) ends the feed first, and the loss must still release the
  // agent. Inside, its teardown took this listener with it and the agent drove on, leaseless.
  const whole = new Subscription()
  whole.add(applying)
  whole.add(
    store.failed$.subscribe((failure) => {
      applying.unsubscribe()
      tell(handlers.failed, failure)
      // Its flush fails like every write of this store: nothing more is written, nothing dropped.
      extensionsOf(agent)
        .release()
        .catch(() => undefined)
    }),
  )
  return whole
}

/** @deprecated use applyRemoteRequests */
export const applyRemoteSends = applyRemoteRequests

/** Applies one remote request to `agent` (see `applyRemoteRequests`); call it at top level. */
export const applyRemoteRequest = (
  agent: Agent,
  store: PostgresSessionStore,
  request: PendingRemoteRequest,
  handlers: RemoteRequestHandlers = {},
): void => {
  const flush = () => agent.session.flush().catch((error: unknown) => tell(handlers.failed, error))
  if (isPendingSend(request)) {
    const { message, options } = request.record
    const result = extensionsOf(agent).acceptRemote({
      id: message.id,
      input: { content: message.content, source: message.source },
      options,
    })
    // A refusal leaves no trace in the transcript: its settlement is made durable now, so the
    // sender's outcome(id) can read it (an accepted send is written with the next checkpoint).
    if (result === 'refused') void flush()
    tell(handlers.applied, request, result)
    return
  }
  let result: RemoteEditApplied
  try {
    result = extensionsOf(agent).applyRemoteEdit(editOf(request.record))
  } catch (error) {
    // Never for a row read back (each is checked as the client checked the call); not noted.
    tell(handlers.failed, error)
    return
  }
  if (result !== 'stopped') {
    // The flush hands what the edit did (events, inbox records) to the store at once; only then
    // is the edit noted, so the checkpoint that records it as applied is one that holds what it
    // did (and a checkpoint that fails leaves both to the next owner). An edit that changed
    // nothing is recorded too, so that no later owner applies it in a state it was not meant for;
    // so is a refused decision, with its settlement, which its client reads (R65).
    const flushed = flush()
    store.noteRemoteApplied(request.seq)
    void flushed
  }
  tell(handlers.applied, request, result)
}
