/**
 * Crash-test child (test/session/crash.test.ts): runs an agent on `fileStore(argv[2])` until it is killed.
 *
 * Usage: `node --import tsx crashChild.ts <logPath> <seed> [tornAt]`.
 *
 * Protocol on stdout, one line each (stdout on a pipe is synchronous on POSIX, so a printed line
 * is out before the next statement runs):
 * - `ready <lastTurn>` once the store is open and the agent created (lastTurn = the resumed turn);
 * - `checkpoint <turn>` once turn `<turn>`'s checkpoint completed: printed at the first `dequeue`
 *   or `idle` after its `turn/end`, which the driver only publishes after the checkpoint (R36);
 * - `flushing` right before each store flush (the parent may kill at once, to hit the write);
 * - `error <message>` for any `agent/error` (a failed checkpoint): the parent fails the test.
 *
 * The model answers at once or after a tiny timer, with long texts (4–60 kB), so every
 * checkpoint is a sizeable write; about half the turns have a tool batch. Followups come in bursts of 1–3 (so
 * checkpoints are followed both by a `dequeue` and by `idle`), with an idle inject now and then (flushed at
 * once, R36).
 *
 * With `tornAt = k > 0` the child tears a write on purpose: after k flushes the next answer is
 * large (1.5–4 MB), and right after the write of its checkpoint has been handed to the file
 * system the child sends itself SIGKILL — a kill from outside can hardly be timed that well.
 */
import { concatMap, from, map, Observable, type ObservableInput, timer } from 'rxjs'
import { z } from 'zod'
import { createAgent, defineTool, fileStore, type ModelEvent, type SessionStore } from '../../../src/index.js'
import { mulberry32 } from '../mulberry32.js'

const path = process.argv[2]
const seed = Number(process.argv[3] ?? '1')
const tornAt = Number(process.argv[4] ?? '0')
if (!path) throw new Error('usage: crashChild.ts <logPath> <seed> [tornAt]')

const random = mulberry32(seed)
const between = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1))

const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

let flushes = 0
const armed = () => tornAt > 0 && flushes >= tornAt

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa']
const longText = (turn: number): string => {
  const size = armed() ? between(1_500_000, 4_000_000) : between(4_000, 60_000)
  const parts: string[] = [`answer to turn ${turn}:`]
  let length = parts[0]!.length
  while (length < size) {
    const word = WORDS[between(0, WORDS.length - 1)]!
    parts.push(word)
    length += word.length + 1
  }
  return parts.join(' ')
}

/**
 * Step 1 of about half the turns asks for 1–3 `notes` calls (whose results are as large as the
 * answers), so kills and torn writes land inside tool batches too; the step after them answers.
 */
const model = (request: { readonly turn: number; readonly step: number }): Observable<ModelEvent> => {
  const text = longText(request.turn)
  const chunk = Math.ceil(text.length / 4)
  const events: ModelEvent[] = []
  for (let i = 0; i < text.length; i += chunk) events.push({ type: 'text', text: text.slice(i, i + chunk) })
  const calls = request.step === 1 && random() < 0.5 ? between(1, 3) : 0
  for (let c = 1; c <= calls; c++) {
    const id = `call_${request.turn}_${c}`
    events.push({ type: 'tool-call', id, name: 'notes', arguments: `{"n":${c}}` })
  }
  const reason = calls > 0 ? 'tool-calls' : 'stop'
  events.push({ type: 'finish', reason, usage: { inputTokens: 10, outputTokens: text.length } })
  const delay = between(0, 3)
  return delay === 0 ? from(events) : timer(delay).pipe(concatMap(() => events))
}

const notes = defineTool({
  name: 'notes',
  description: 'Reads note n.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => {
    const text = `note ${n}: ${longText(n)}`
    const delay = between(0, 2)
    return delay === 0 ? text : timer(delay).pipe(map(() => text))
  },
})

/** The file store, with `flushing` announced and (when armed) the self-kill inside a big write. */
const file = fileStore(path)
let pendingBytes = 0
const store: SessionStore = {
  load: () => file.load(),
  append: (events) => {
    if (armed()) for (const event of events) pendingBytes += JSON.stringify(event).length
    file.append(events)
  },
  flush: (): ObservableInput<void> => {
    print('flushing')
    const big = armed() && pendingBytes > 1_000_000
    flushes++
    pendingBytes = 0
    const inner = from(file.flush())
    if (!big) return inner
    return new Observable<void>((subscriber) => {
      // Subscribing starts the write (handed to libuv's thread pool); the kill lands while the
      // kernel copies megabytes into the file.
      const subscription = inner.subscribe(subscriber)
      setImmediate(() => process.kill(process.pid, 'SIGKILL'))
      return subscription
    })
  },
  close: () => file.close?.(),
}

const agent = createAgent({ model, store, tools: [notes] })
const startTurn = agent.session.events.reduce(
  (last, e) => (e.type === 'turn/start' && e.data.turn > last ? e.data.turn : last),
  0,
)
let ended = startTurn
let reported = startTurn
agent.transcript$.subscribe((event) => {
  if (event.type === 'turn/end') ended = event.data.turn
})
agent.events$.subscribe((event) => {
  if (event.type === 'agent/error') print(`error ${String((event.error as Error)?.message ?? event.error)}`)
  const afterCheckpoint =
    event.type === 'agent/inbox/dequeue' || (event.type === 'agent/status' && event.status === 'idle')
  if (afterCheckpoint && ended > reported) {
    reported = ended
    print(`checkpoint ${ended}`)
  }
})
print(`ready ${startTurn}`)

let n = 0
for (;;) {
  const burst = between(1, 3)
  for (let i = 0; i < burst; i++) agent.followup(`question ${++n} (pid ${process.pid})`)
  await agent.whenIdle()
  if (random() < 0.3) {
    agent.inject(`note ${n}`)
    await agent.session.flush()
  }
}
