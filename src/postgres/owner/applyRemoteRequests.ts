import { concatMap, defer, EMPTY, from, type Observable, Subscription } from 'rxjs'
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
 * through the agent's own operation (remove, replace, move, promote, cancel, approve, deny,
 * cancelToolCall, rollback), decided by its state at that moment (a rollback waits for an idle
 * agent, and the requests after it wait with it); a decision for a call that is not pending then settles
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
  const applying = store.remoteRequests$
    .pipe(concatMap((request) => applyWhenIdle(agent, store, request, handlers)))
    .subscribe({ error: (error: unknown) => tell(handlers.failed, error) })
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

/**
 * Applies one request; a rollback that meets work (R77) is applied at the agent's next idle
 * moment, and the requests stored after it wait for it. They must: the owner records how far it
 * applied the edit rows as one number (`remote_applied`), so none after the rollback may count as
 * applied before it; and a prompt stored after the rollback must not run first and be the turn it
 * undoes. A client that wants a running turn stopped first stores its cancel before the rollback.
 */
const applyWhenIdle = (
  agent: Agent,
  store: PostgresSessionStore,
  request: PendingRemoteRequest,
  handlers: RemoteRequestHandlers,
): Observable<never> =>
  defer(() =>
    applyRemoteRequest(agent, store, request, handlers) === 'busy'
      ? from(agent.whenIdle()).pipe(concatMap(() => applyWhenIdle(agent, store, request, handlers)))
      : EMPTY,
  )

/** @deprecated use applyRemoteRequests */
export const applyRemoteSends = applyRemoteRequests

/**
 * Applies one remote request to `agent` (see `applyRemoteRequests`); call it at top level. A
 * rollback that met work returns `busy` having changed and noted nothing: apply it again later.
 */
export const applyRemoteRequest = (
  agent: Agent,
  store: PostgresSessionStore,
  request: PendingRemoteRequest,
  handlers: RemoteRequestHandlers = {},
): RemoteApplied | RemoteEditApplied | undefined => {
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
    return result
  }
  let result: RemoteEditApplied
  try {
    result = extensionsOf(agent).applyRemoteEdit(editOf(request.record))
  } catch (error) {
    // Never for a row read back (each is checked as the client checked the call); not noted.
    tell(handlers.failed, error)
    return undefined
  }
  if (result === 'busy') return result
  if (result !== 'stopped') {
    // What the edit did (events, inbox records) is handed to the store before the edit is noted,
    // and the store counts the note from its next flush on, so the checkpoint that records it as
    // applied is one that holds what it did (a refused rollback's settlement, say); a checkpoint
    // that fails leaves both to the next owner. An edit that changed nothing is recorded too, so
    // that no later owner applies it in a state it was not meant for; so is a refused decision,
    // with its settlement, which its client reads (R65).
    try {
      extensionsOf(agent).handOver()
      store.noteRemoteApplied(request.seq)
    } catch (error) {
      // What the edit did stays with the transcript for the next flush; the edit is not noted, so
      // a later owner applies it again in the state the log then holds.
      tell(handlers.failed, error)
    }
    void flush()
  }
  tell(handlers.applied, request, result)
  return result
}
