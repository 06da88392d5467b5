import { createInterface, type Interface } from 'node:readline'
import { PassThrough, Writable } from 'node:stream'

/** A key as `emitKeypressEvents` reports it. */
export type Key = {
  readonly name?: string
  readonly ctrl?: boolean
  readonly meta?: boolean
  readonly shift?: boolean
  readonly sequence?: string
}

/**
 * The terminal app's input line, edited by Node's own `readline`: ←/→, Home/End, Ctrl-A/E/W/K,
 * Backspace/Delete, and history on ↑/↓ (lines sent before). The app hands it the keys it does not
 * take itself; readline keeps the line and the cursor and writes nowhere (the app draws the line
 * in its live region, from `text` and `cursor`). Enter sends the line to `onLine`.
 */
export class LineEditor {
  readonly #keys = new PassThrough()
  readonly #rl: Interface

  constructor(onLine: (line: string) => void, historySize = 100) {
    // A terminal that swallows what readline draws: the app draws the line itself.
    const screen = Object.assign(new Writable({ write: (_chunk, _encoding, done) => done() }), {
      isTTY: true,
      columns: 10_000,
    })
    this.#rl = createInterface({ input: this.#keys, output: screen, terminal: true, historySize, prompt: '' })
    this.#rl.on('line', onLine)
  }

  /** The line as typed so far. */
  get text(): string {
    return this.#rl.line
  }

  /** Where the cursor is in `text` (0: before its first character). */
  get cursor(): number {
    return this.#rl.cursor
  }

  /** One key for readline: it edits the line, moves the cursor, walks the history or sends. */
  key(text: string | undefined, key: Key): void {
    this.#keys.emit('keypress', text, key)
  }

  /** Replaces the line (the cursor at its end), as if the user had typed `text` into an empty one. */
  set(text: string): void {
    this.#rl.write(null, { ctrl: true, name: 'e' })
    this.#rl.write(null, { ctrl: true, name: 'u' })
    // A newline would send the line: text put back in it keeps its words on one line.
    if (text !== '') this.#rl.write(text.replace(/[\r\n]+/g, ' '))
  }

  close(): void {
    this.#rl.close()
  }
}
