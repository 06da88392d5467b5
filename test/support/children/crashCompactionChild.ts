/**
 * Crash-test child for compaction (test/session/crash.compaction.test.ts): opens a session on
 * `fileStore(argv[2])` that already holds several turns, calls `agent.compact()` at once and keeps
 * sending followups, steers and injects (flushing now and then) until it is killed.
 *
 * Usage: `node crashCompactionChild.mjs <logPath> <seed> <keepLastTurns> <big: 0|1>`.
 *
 * The summariser streams `SUMMARY_PIECES` pieces (see `summaryPiece`) and before each one prints
 * `piece <j>` and waits for a `go` line on stdin: the parent holds the compaction open for as long
 * as it likes, or kills the child right there. With `big = 1` the pieces are large (about 3 MB in
 * all) and the child sends itself SIGKILL as soon as the log file grows in the flush that carries
 * the `compaction` event, so that line may be torn on disk.
 *
 * Protocol on stdout, one line each (stdout on a pipe is synchronous on POSIX, so a printed line
 * is out before the next statement runs):
 * - `piece <j>` the summariser is about to emit piece j, once the parent says `go`;
 * - `summarised` the summariser completed;
 * - `appended compaction` the store was handed the `compaction` event (not yet written);
 * - `flushing` right before each store flush;
 * - `compacted <kind>` `compact()` resolved (its flush has started);
 * - `compaction-durable` a `session.flush()` after it resolved: the `compaction` event is on disk;
 * - `durable <id> …` the ids sent before a `session.flush()` that has resolved (R52);
 * - `error <text>` an `agent/error`, a broken books check (R30) or an unexpected result.
 */
import { statSync } from 'node:fs'
import { concatMap, from, Observable, type ObservableInput, timer } from 'rxjs'
import {
  type AgentMessageId,
  createAgent,
  fileStore,
  inboxConservation,
  type ModelEvent,
  type SessionStore,
} from '../../../src/index.js'
import { SUMMARY_PIECES, summaryPiece } from '../compactionSummary.js'
import { mulberry32 } from '../mulberry32.js'

const [path, seedArg = '1', keepArg = '1', bigArg = '0'] = process.argv.slice(2)
if (!path) throw new Error('usage: crashCompactionChild.mjs <logPath> <seed> <keepLastTurns> <big: 0|1>')
const random = mulberry32(Number(seedArg))
const big = bigArg === '1'
const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

/** Each `go` line from the parent releases one waiting piece. */
const waiting: (() => void)[] = []
let stdin = ''
process.stdin.on('data', (chunk: Buffer) => {
  stdin += chunk.toString()
  for (let nl = stdin.indexOf('\n'); nl !== -1; nl = stdin.indexOf('\n')) {
    stdin = stdin.slice(nl + 1)
    waiting.shift()?.()
  }
})

/** Streams the summary piece by piece, each one released by the parent. */
const summarize = (): Observable<string> =>
  new Observable<string>((subscriber) => {
    let j = 0
    const next = (): void => {
      if (j === SUMMARY_PIECES) {
        print('summarised')
        subscriber.complete()
        return
      }
      print(`piece ${j}`)
      waiting.push(() => {
        subscriber.next(summaryPiece(j++, big))
        next()
      })
    }
    next()
  })

/** Short answers after 1–5 ms, so the turns after the compaction interleave with the sends. */
const model = (): Observable<ModelEvent> =>
  timer(1 + Math.floor(random() * 5)).pipe(
    concatMap(() =>
      from([
        { type: 'text', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ] as ModelEvent[]),
    ),
  )

/** The file store, announcing its compaction append and its flushes (and tearing one, if big). */
const file = fileStore(path)
let compactionPending = false
const store: SessionStore = {
  load: () => file.load(),
  inbox: file.inbox,
  append: (events) => {
    if (events.some((e) => e.type === 'compaction')) {
      compactionPending = true
      print('appended compaction')
    }
    file.append(events)
  },
  flush: (): ObservableInput<void> => {
    print('flushing')
    const tear = big && compactionPending
    compactionPending = false
    const inner = from(file.flush())
    if (!tear) return inner
    return new Observable<void>((subscriber) => {
      // Subscribing starts the write (handed to libuv's thread pool); the kill lands once the
      // file has begun to grow, while the kernel copies megabytes into it.
      const size = statSync(path).size
      const subscription = inner.subscribe(subscriber)
      const killOnceGrowing = (): void => {
        if (statSync(path).size > size) process.kill(process.pid, 'SIGKILL')
        else setImmediate(killOnceGrowing)
      }
      setImmediate(killOnceGrowing)
      return subscription
    })
  },
  close: () => file.close?.(),
}

const agent = createAgent({ model, store })
agent.events$.pipe(inboxConservation({ initial: agent.inbox })).subscribe({
  next: (event) => {
    if (event.type === 'agent/error') print(`error ${String(event.error)}`)
  },
  error: (error: unknown) => print(`error books: ${String(error)}`),
})

let n = 0
let unflushed: AgentMessageId[] = []
const step = (): void => {
  for (let ops = 1 + Math.floor(random() * 3); ops > 0; ops--) {
    const roll = random()
    const text = `m${seedArg}.${++n}`
    if (roll < 0.45) unflushed.push(agent.followup(text))
    else if (roll < 0.75) unflushed.push(agent.steer(text))
    else unflushed.push(agent.inject(text))
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

// The sends start once the compaction has begun: one sent before it, while idle, would start a turn.
const started = agent.events$.subscribe((event) => {
  if (event.type !== 'agent/compaction/start') return
  started.unsubscribe()
  step()
})
agent.compact({ keepLastTurns: Number(keepArg), summarize }).then(async (result) => {
  print(`compacted ${result.kind}`)
  if (result.kind !== 'compacted') print(`error compact() resolved ${result.kind}`)
  // Not whenIdle(): the followups sent meanwhile may keep the agent busy for good.
  await agent.session.flush()
  print('compaction-durable')
})
