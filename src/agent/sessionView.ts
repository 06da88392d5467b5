import { firstValueFrom } from 'rxjs'
import type { AgentSession } from '../contracts/agentSession.js'
import type { SessionEvent } from '../contracts/events.js'
import type { Message } from '../contracts/messages.js'
import type { SessionStore } from '../contracts/store.js'
import { flushTranscript } from '../session/flush.js'
import type { Transcript } from '../session/transcript.js'

/** `agent.session`: the durable transcript and what the model sees of it, read from the `Transcript`. */
export class SessionView implements AgentSession {
  readonly #transcript: Transcript
  readonly #store: SessionStore

  constructor(transcript: Transcript, store: SessionStore) {
    this.#transcript = transcript
    this.#store = store
  }

  get events(): readonly SessionEvent[] {
    return this.#transcript.eventsCopy()
  }

  messages(): readonly Message[] {
    return this.#transcript.messages()
  }

  flush(): Promise<void> {
    // A microtask later: a send made inside a delivery (from a subscriber of events$, say) has
    // been processed by then (it waited in the trampoline), so its journal record is handed over
    // with this flush and an accepted send is durable when it resolves (R52).
    return Promise.resolve().then(() =>
      firstValueFrom(flushTranscript(this.#transcript, this.#store), { defaultValue: undefined }),
    )
  }
}
