/** One value of a diagram: its frame and its letter (`|` for complete, `#` for error). */
export type DiagramValue = { readonly frame: number; readonly letter: string }

/**
 * Reads a marble diagram in the syntax of `TestScheduler.run`: `-` is a frame, spaces are
 * nothing, `(ab)` puts its letters on one frame and takes as many frames as it has characters,
 * `10ms ` (also `s`, `m`) after a space or at the start is that much time. Written here rather
 * than taken from `TestScheduler.parseMarbles`, whose frame length is a static that only the
 * spec's own copy of `rxjs/testing` sets inside `run`: steerable's copy (the CommonJS one beside
 * an ES module one, say) would read every `-` as 10 frames.
 *
 * @throws Error for the markers of subscriptions (`^`, `!`), which an agent's lanes do not have.
 */
export const parseDiagram = (diagram: string): DiagramValue[] => {
  const values: DiagramValue[] = []
  let frame = 0
  let group = -1
  for (let i = 0; i < diagram.length; i++) {
    const c = diagram[i] as string
    if (c === ' ') continue
    if (c === '^' || c === '!')
      throw new Error(`'${c}' marks a subscription; an agent's lanes start when the agent is made`)
    if (/[0-9]/.test(c) && (i === 0 || diagram[i - 1] === ' ')) {
      const time = /^(\d+(?:\.\d+)?)(ms|s|m) /.exec(diagram.slice(i))
      if (time) {
        const unit = time[2] === 'ms' ? 1 : time[2] === 's' ? 1000 : 60_000
        frame += Number(time[1]) * unit
        i += time[0].length - 1
        continue
      }
    }
    if (c === '(') group = frame
    else if (c === ')') group = -1
    else if (c !== '-') values.push({ frame: group > -1 ? group : frame, letter: c })
    frame += 1
  }
  return values
}
