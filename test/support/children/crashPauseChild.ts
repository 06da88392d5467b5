/**
 * Crash-test child for a paused session (test/session/crash.pause.test.ts): an agent on
 * `fileStore(argv[2])` that pauses on approvals (or reopens paused) and then keeps receiving
 * sends while paused — followups queue, steers and injects are staged — and flushing, until it is
 * killed. It never decides: a call that needs approval must never run here.
 *
 * Usage: `node crashPauseChild.mjs <logPath> <seed>`.
 *
 * Protocol on stdout, one line each (JSON after the word):
 * - `restored {"status","approvals","queue","outbox"}` what the agent opened with;
 * - `paused {…}` the same once the pause is reached and flushed (at once when it reopened paused);
 * - `durable {…}` the state when a `session.flush()` was called that has since resolved;
 * - `error <text>` an `agent/error`, a broken R30 check, a call that needs approval that ran, or
 *   a reopened session that is not paused: the parent fails the test.
 */
import { concatMap, from, type Observable, timer } from 'rxjs'
import { z } from 'zod'
import {
  type Agent,
  createAgent,
  defineTool,
  fileStore,
  inboxConservation,
  type ModelEvent,
  type ModelRequest,
} from '../../../src/index.js'
import { mulberry32 } from '../mulberry32.js'

const path = process.argv[2]
const seed = Number(process.argv[3] ?? '1')
if (!path) throw new Error('usage: crashPauseChild.ts <logPath> <seed>')

const random = mulberry32(seed)
const print = (word: string, data?: unknown): void => {
  process.stdout.write(
    `${word}${data === undefined ? '' : ` ${typeof data === 'string' ? data : JSON.stringify(data)}`}\n`,
  )
}

/** The calls of the paused step: `c1` and `c3` need approval, `c2` (a read) needs none. */
const PAUSED_CALLS = [
  { id: 'c1', name: 'shell', arguments: '{"cmd":"make"}' },
  { id: 'c2', name: 'read', arguments: '{"cmd":"notes"}' },
  { id: 'c3', name: 'shell', arguments: '{"cmd":"deploy"}' },
]

/** Tool calls for the first request of the session, text for any other; a few ms late. */
const model = (request: ModelRequest): Observable<ModelEvent> => {
  const first = !request.messages.some((m) => m.role === 'tool' || m.role === 'assistant')
  const events: ModelEvent[] = first
    ? [
        ...PAUSED_CALLS.map((c) => ({ type: 'tool-call' as const, ...c })),
        { type: 'finish', reason: 'tool-calls' },
      ]
    : [
        { type: 'text', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ]
  return timer(1 + Math.floor(random() * 5)).pipe(concatMap(() => from(events)))
}

const parameters = z.object({ cmd: z.string() })
const tools = [
  defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters,
    needsApproval: true,
    execute: ({ cmd }) => {
      print('error', `shell ${cmd} ran in a child that never approves`)
      return 'ran'
    },
  }),
  defineTool({
    name: 'read',
    description: 'Reads a file.',
    parameters,
    execute: ({ cmd }) => timer(Math.floor(random() * 10)).pipe(concatMap(() => from([`read ${cmd}`]))),
  }),
]

const agent: Agent = createAgent({ model, tools, store: fileStore(path) })
const state = () => ({
  status: agent.status,
  approvals: agent.approvals.map((a) => a.callId),
  queue: agent.inbox.queue.map((i) => i.message.id),
  outbox: agent.inbox.outbox.map((i) => i.message.id),
})
const restored = state()
print('restored', restored)
agent.events$.pipe(inboxConservation({ initial: agent.inbox })).subscribe({
  next: (event) => {
    if (event.type === 'agent/error') print('error', `agent/error: ${String(event.error)}`)
  },
  error: (error: unknown) => print('error', `books: ${String(error)}`),
})

let n = 0
/** While paused: sends every few ms, a flush now and then; `durable` once a flush resolved. */
const step = (): void => {
  if (agent.status !== 'paused') return print('error', `not paused any more: ${agent.status}`)
  for (let sends = 1 + Math.floor(random() * 3); sends > 0; sends--) {
    const roll = random()
    const text = `m${seed}.${++n}`
    if (roll < 0.45) agent.followup(text)
    else if (roll < 0.8) agent.steer(text)
    else agent.inject(text)
  }
  if (random() < 0.4) {
    const at = state()
    agent.session.flush().then(
      () => print('durable', at),
      (error: unknown) => print('error', `flush: ${String(error)}`),
    )
  }
  setTimeout(step, Math.floor(random() * 4))
}

const begin = (): void => {
  print('paused', state())
  step()
}

if (restored.status === 'paused') begin()
else if (agent.session.events.length > 0) print('error', `reopened ${restored.status}, not paused`)
else {
  agent.followup('deploy the release')
  const sub = agent.approvals$.subscribe((list) => {
    if (list.length < 2) return
    queueMicrotask(() => sub.unsubscribe())
    // The pause is a checkpoint (R65): once this flush resolves, the requests are on disk.
    agent.session.flush().then(begin, (error: unknown) => print('error', `flush: ${String(error)}`))
  })
}
