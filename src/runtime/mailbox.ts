/**
 * Values that arrived while the value one level up was being delivered; reused across drains.
 * `items[head..size)` are waiting. The array is never shortened (setting `length` is a runtime
 * call and frees the backing store, so the next push reallocates it); slots are cleared instead.
 */
type Frame<T> = { readonly items: (T | undefined)[]; head: number; size: number }

const NOTHING: readonly never[] = Object.freeze([])

/**
 * The trampoline's waiting values, as the driver can read them: XState's `Mailbox`, depth-first.
 * Frame `d` collects what arrives while a value of depth `d - 1` is being delivered; `tail` holds
 * the values held until the drain's end (`last`). `waiting()` lists what waits, not reduced yet,
 * so a call can ask what is ahead of it (`machine/check.ts`) without counters kept beside it.
 *
 * The frames are kept and reused from one drain to the next (a drain runs per accepted send and
 * per turn step), so a steady pipeline allocates nothing here
 * (docs/performance.md#trampoline-frames-are-reused).
 */
export class Mailbox<T> {
  readonly frames: Frame<T>[] = []
  /** The `last` values of the drain in progress (rare: a plain array). */
  readonly tail: T[] = []
  /** The frame collecting arrivals: `depth - 1` is the delivery in progress; -1: no drain. */
  depth = -1

  frameAt(at: number): Frame<T> {
    let frame = this.frames[at]
    if (frame === undefined) {
      // Room for two: most frames hold one or two values, and `[]` grows to 17 slots on its
      // first push, 136 bytes that an idle agent would keep in each of its ten or so frames.
      frame = { items: [undefined, undefined], head: 0, size: 0 }
      this.frames[at] = frame
    }
    return frame
  }

  push(frame: Frame<T>, value: T): void {
    if (frame.size === frame.items.length) frame.items.push(value)
    else frame.items[frame.size] = value
    frame.size++
  }

  /** Drops whatever waits (a drain that threw), so the next drain starts clean. */
  clear(): void {
    for (const frame of this.frames) {
      frame.items.fill(undefined, frame.head, frame.size)
      frame.head = 0
      frame.size = 0
    }
    this.tail.length = 0
    this.depth = -1
  }

  /** What waits, not delivered yet, in no particular order; empty outside a drain. */
  waiting(): readonly T[] {
    if (this.depth < 0) return NOTHING
    const out: T[] = []
    for (let d = 0; d <= this.depth && d < this.frames.length; d++) {
      const frame = this.frames[d] as Frame<T>
      for (let i = frame.head; i < frame.size; i++) out.push(frame.items[i] as T)
    }
    out.push(...this.tail)
    return out.length === 0 ? NOTHING : out
  }
}
