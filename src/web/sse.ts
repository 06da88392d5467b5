import type { ServerResponse } from 'node:http'
import { interval, map, merge } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import type { Recording } from '../timeline/record.js'

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

/**
 * One page's event stream: `snapshot` (the record so far) first, then each timeline `entry`, each
 * `inbox` snapshot and each `status` as they happen, and a comment every 15 s so proxies keep
 * the connection. Ends when the agent's streams do; returns the teardown.
 */
export const streamTo = (res: ServerResponse, agent: Agent, recording: Recording): (() => void) => {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  })
  res.write(frame('snapshot', { agentId: agent.id, record: recording.record() }))
  const subscription = merge(
    recording.entries$.pipe(map((entry) => frame('entry', entry))),
    agent.inbox$.pipe(map((inbox) => frame('inbox', inbox))),
    agent.status$.pipe(map((status) => frame('status', status))),
    interval(15_000).pipe(map(() => ': keep-alive\n\n')),
  ).subscribe({
    next: (text) => res.write(text),
    complete: () => res.end(),
  })
  return () => {
    subscription.unsubscribe()
    res.end()
  }
}
