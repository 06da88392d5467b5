// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the ESC of ANSI color codes is the point
const ANSI_COLOR = /\x1b\[[0-9;]*m/g

/** Visible width of a line (ANSI escapes do not count). */
const width = (line: string): number => line.replace(ANSI_COLOR, '').length

/**
 * The bottom of the screen that is redrawn in place (streamed text, the status line, the input
 * line), below the scrollback that is printed once. Like log-update, in a few lines.
 */
export class LiveRegion {
  private lines: readonly string[] = []
  private rows = 0
  private back = 0

  constructor(private readonly out: NodeJS.WriteStream) {}

  /**
   * Replaces the region; the cursor ends on the last line, `back` characters before its end (the
   * input line's cursor), never past the start of the row it is on.
   */
  render(lines: readonly string[], back = 0): void {
    this.erase()
    this.lines = lines
    this.back = back
    this.out.write(lines.join('\n'))
    const columns = this.out.columns || 80
    this.rows = lines.reduce((n, line) => n + Math.max(1, Math.ceil(width(line) / columns)), 0)
    const column = width(lines[lines.length - 1] ?? '') % columns
    const left = Math.min(back, column)
    if (left > 0) this.out.write(`\x1b[${left}D`)
  }

  /** Prints a line into the scrollback above the region, then redraws the region. */
  print(line: string): void {
    const lines = this.lines
    this.erase()
    this.out.write(`${line}\n`)
    this.render(lines, this.back)
  }

  /**
   * The terminal echoed `text` and a newline after the region (a line typed while it is drawn,
   * outside raw mode): the region now ends that many rows higher, so the next erase goes up to it.
   */
  echoed(text: string): void {
    if (this.rows === 0) return
    const columns = this.out.columns || 80
    const last = width(this.lines[this.lines.length - 1] ?? '')
    this.rows += Math.floor((last + width(text)) / columns) - Math.floor(last / columns) + 1
  }

  erase(): void {
    if (this.rows > 1) this.out.write(`\x1b[${this.rows - 1}A`)
    if (this.rows > 0) this.out.write('\r\x1b[J')
    this.rows = 0
    this.lines = []
  }
}
