import type { ObservableInput } from 'rxjs'
import type { SessionEvent } from './events.js'
import type { InboxJournal } from './inbox.js'

/**
 * Where durable events live (R35). `append` is buffered and synchronous; `flush` makes what was
 * appended so far durable and may be asynchronous (any `ObservableInput`, so a Promise works
 * and a marble `cold()` works in tests); `load` is synchronous, so an agent can be created on a
 * store and continue its session at once (R37).
 */
export type SessionStore = {
  load(): readonly SessionEvent[]
  append(events: readonly SessionEvent[]): void
  flush(): ObservableInput<void>
  close?(): void
  /**
   * The inbox journal (R50): with one, everything waiting survives a crash and is rebuilt when the
   * session is opened again. Without one, the inbox lives in memory only.
   */
  readonly inbox?: InboxJournal
}
