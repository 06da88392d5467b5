/**
 * Lock-race child (test/session/crash.lock.test.ts): races other processes for the writer lock of one
 * session log, or reports how opening a log fails.
 *
 * Usage: `node lockChild.mjs <mode> <logPath> [journal go [n]]`, with mode
 * - `loop`: once the file `go` exists, for `n` milliseconds open the store again and again,
 *   taking `SessionLockedError` as a lost round; prints `done <wins> <losses>`;
 * - `race`: rounds 1 to `n`: once the file `<go><round>` exists, one attempt: prints
 *   `lost <round>` and waits for the next round, or holds the lock, prints `held <round>` and
 *   stays alive until it is killed (its lock is then a dead process's lock);
 * - `open`: one attempt at once; prints `error <json>` with what it threw, or `opened`.
 *
 * Racers print `ready` once they are loaded. While it holds the lock a racer appends
 * `<pid> enter` to the journal (O_APPEND, so lines of different processes never mix), appends one
 * event to the log and flushes it, and appends `<pid> exit` before it closes the store (a killed
 * holder's `exit` is written by the parent). Any other error is printed as `error <json>` and
 * the child exits with 1.
 */
import { existsSync, openSync, writeSync } from 'node:fs'
import { from, lastValueFrom } from 'rxjs'
import { type FileStore, fileStore, SessionLockedError } from '../../../src/index.js'

const [mode, logPath, journal, go, n] = process.argv.slice(2)
if (!mode || !logPath) throw new Error('usage: lockChild.mjs <mode> <logPath> [journal go [n]]')

const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}
const describe = (error: unknown): string => {
  const e = error as { name?: unknown; message?: unknown; path?: unknown; file?: unknown; cause?: unknown }
  const code = (e.cause as { code?: unknown } | undefined)?.code
  return JSON.stringify({ name: e.name, message: e.message, path: e.path ?? e.file, code })
}
const sleep = (milliseconds: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds)
}

if (mode === 'open') {
  try {
    fileStore(logPath).close?.()
    print('opened')
  } catch (error) {
    print(`error ${describe(error)}`)
  }
  process.exit(0)
}

if (!journal || !go) throw new Error('loop and race need <journal> <go>')
const journalFd = openSync(journal, 'a')
const note = (word: string): void => {
  writeSync(journalFd, `${process.pid} ${word}\n`)
}

/** The store, or `undefined` when another live process holds the lock. */
const tryOpen = (): FileStore | undefined => {
  try {
    return fileStore(logPath)
  } catch (error) {
    if (error instanceof SessionLockedError) return undefined
    print(`error ${describe(error)}`)
    process.exit(1)
  }
}
/** Appends one event and makes it durable: a second holder would write over it. */
const writeOne = async (store: FileStore): Promise<void> => {
  const seq = store.load().length + 1
  store.append([
    {
      seq,
      type: 'user/message',
      data: { content: [{ type: 'text', text: `from ${process.pid}` }], source: { kind: 'user' } },
    },
  ])
  await lastValueFrom(from(store.flush()), { defaultValue: undefined })
}

print('ready')

if (mode === 'loop') {
  while (!existsSync(go)) sleep(1)
  const until = Date.now() + Number(n ?? '1000')
  let wins = 0
  let losses = 0
  while (Date.now() < until) {
    const store = tryOpen()
    if (!store) {
      losses++
      continue
    }
    note('enter')
    await writeOne(store)
    note('exit')
    store.close?.()
    wins++
  }
  print(`done ${wins} ${losses}`)
  process.exit(0)
}

for (let round = 1; round <= Number(n ?? '1'); round++) {
  while (!existsSync(`${go}${round}`)) sleep(1)
  const store = tryOpen()
  if (!store) {
    print(`lost ${round}`)
    continue
  }
  note('enter')
  await writeOne(store)
  print(`held ${round}`)
  setInterval(() => {}, 60_000) // holds the lock until the parent kills it
  break
}
