/**
 * Crash-test child for the durable inbox (test/session/crash.inbox.test.ts): an agent on
 * `fileStore(argv[2])` that keeps receiving random sends and inbox edits until it is killed.
 *
 * Usage: `node --import tsx crashInboxChild.ts <logPath> <seed>`.
 *
 * Protocol on stdout, one line each:
 * - `restored <id> …` the ids the resumed agent's inbox holds at creation (queue, then outbox);
 * - `ready` once the agent runs;
 * - `durable <id> …` the ids sent before a `session.flush()` that has resolved (R52);
 * - `moved <id>` before a `move` or `promote` of it (the others keep their acceptance order);
 * - `error <text>` an `agent/error` or a broken books check (R30): the parent fails the test.
 */
import { concatMap, from, type Observable, timer } from 'rxjs'
import {
  type AgentMessageId,
  createAgent,
  fileStore,
  inboxConservation,
  type ModelEvent,
} from '../../../src/index.js'
import { mulberry32 } from '../mulberry32.js'

const path = process.argv[2]
const seed = Number(process.argv[3] ?? '1')
if (!path) throw new Error('usage: crashInboxChild.ts <logPath> <seed>')

const random = mulberry32(seed)
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)]
const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

/** Short answers after 2–40 ms, so kills land in turns (with staged input), in admissions and between them. */
const model = (): Observable<ModelEvent> =>
  timer(2 + Math.floor(random() * 39)).pipe(
    concatMap(() =>
      from([
        { type: 'text', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ] as ModelEvent[]),
    ),
  )

const agent = createAgent({ model, store: fileStore(path) })
print(`restored ${[...agent.inbox.queue, ...agent.inbox.outbox].map((i) => i.message.id).join(' ')}`)
agent.events$.pipe(inboxConservation({ initial: agent.inbox })).subscribe({
  next: (event) => {
    if (event.type === 'agent/error') print(`error ${String(event.error)}`)
  },
  error: (error: unknown) => print(`error books: ${String(error)}`),
})

let n = 0
let unflushed: AgentMessageId[] = []
const waiting = (): AgentMessageId[] => [
  ...agent.inbox.queue.map((i) => i.message.id),
  ...agent.inbox.outbox.map((i) => i.message.id),
]

const step = (): void => {
  for (let ops = 1 + Math.floor(random() * 4); ops > 0; ops--) {
    const roll = random()
    const text = `m${seed}.${++n}`
    if (roll < 0.3) unflushed.push(agent.followup(text))
    else if (roll < 0.45) unflushed.push(agent.steer(text))
    else if (roll < 0.55) unflushed.push(agent.inject(text))
    else if (roll < 0.62) unflushed.push(agent.send(text, { target: 'next-turn', wakeup: false }))
    else {
      const id = pick(waiting())
      if (id === undefined) continue
      if (roll < 0.7) agent.remove(id)
      else if (roll < 0.8) agent.replace(id, `${text} (edited)`)
      else if (roll < 0.88) {
        print(`moved ${id}`)
        agent.move(id, Math.floor(random() * 4))
      } else if (roll < 0.96) {
        print(`moved ${id}`)
        agent.promote(id)
      } else agent.cancel({ kind: 'user' }, { keepInbox: random() < 0.5 })
    }
  }
  if (random() < 0.4) {
    const batch = unflushed
    unflushed = []
    agent.session.flush().then(
      () => print(`durable ${batch.join(' ')}`),
      (error: unknown) => print(`error flush: ${String(error)}`),
    )
  }
  setTimeout(step, Math.floor(random() * 4))
}
print('ready')
step()
