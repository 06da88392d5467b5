import type { ServerResponse } from 'node:http'
import { filter, interval, map, merge, pairwise, Subscription, startWith } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import type { Recording } from '../timeline/record.js'
import { type InboxChange, inboxChanges } from './inboxChanges.js'
import { liveTextPieces } from './liveTextPieces.js'

/**
 * Bytes a page's event stream may hold unsent (beyond its first snapshot) before it is dropped:
 * 8 MiB. A page that reads nothing would otherwise make the server keep every frame for it.
 */
export const MAX_UNSENT_EVENT_BYTES = 8 << 20

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
const changesFrame = (changes: readonly InboxChange[]) =>
  changes.length === 0 ? '' : frame('inbox-changes', changes)

/**
 * One page's event stream: `snapshot` (the record so far and the server's `now`), `inbox` (what waits) and
 * `approvals` (the calls that wait for a decision, R67) first, then each timeline `entry`, each
 * `inbox-changes` (the changes to what waits, `InboxChange[]`), each `status` and each new
 * `approvals` list as they happen, each `text` piece of the answer being streamed (R85,
 * `LiveTextPiece`: the text so far first, then each delta), and a comment every 15 s so proxies keep the connection. Ends
 * when the agent's streams do; returns the teardown.
 *
 * A page that does not take what is sent is dropped (its connection destroyed) once more than
 * `maxUnsentBytes` beyond its first frames wait in the server for it: the browser's EventSource
 * reconnects, and a new connection starts again from a snapshot.
 */
export const streamTo = (
  res: ServerResponse,
  agent: Agent,
  recording: Recording,
  maxUnsentBytes: number = MAX_UNSENT_EVENT_BYTES,
): (() => void) => {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  })
  // `now`: the server's clock, so a page can tell how long ago an entry's `t` was whatever its own
  // clock says (the running tools' elapsed time).
  res.write(frame('snapshot', { agentId: agent.id, now: Date.now(), record: recording.record() }))
  const subscription = new Subscription()
  const stop = () => {
    subscription.unsubscribe()
    res.end()
  }
  const drop = () => {
    subscription.unsubscribe()
    res.destroy()
  }
  let limit = Number.POSITIVE_INFINITY
  subscription.add(
    merge(
      agent.inbox$.pipe(
        startWith(undefined),
        pairwise(),
        map(([before, after]) =>
          before === undefined ? frame('inbox', after) : changesFrame(inboxChanges(before, after!)),
        ),
        filter((text) => text !== ''),
      ),
      recording.entries$.pipe(map((entry) => frame('entry', entry))),
      agent.status$.pipe(map((status) => frame('status', status))),
      liveTextPieces(agent.text$).pipe(map((piece) => frame('text', piece))),
      agent.approvals$.pipe(map((approvals) => frame('approvals', approvals))),
      interval(15_000).pipe(map(() => ': keep-alive\n\n')),
    ).subscribe({
      next: (text) => {
        if (!res.write(text) && res.writableLength > limit) drop()
      },
      complete: () => res.end(),
    }),
  )
  // The first frames may be large (a long record): the bound counts what waits beyond them.
  limit = res.writableLength + maxUnsentBytes
  return stop
}
