import type { AgentEvent } from '../contracts/events.js'
import type { AgentMessageId } from '../contracts/messages.js'

/** Outstanding queued and steering items, kept from the inbox events (R30's books). */
export class InboxCounts {
  private readonly queued = new Set<AgentMessageId>()
  private readonly steering = new Set<AgentMessageId>()

  get counts(): { readonly queued: number; readonly staged: number } {
    return { queued: this.queued.size, staged: this.steering.size }
  }

  apply(event: AgentEvent): void {
    if (event.type === 'agent/inbox/enqueue') {
      ;(event.placement === 'queued' ? this.queued : this.steering).add(event.message.id)
    } else if (event.type === 'agent/inbox/dequeue' || event.type === 'agent/inbox/discard') {
      for (const m of event.type === 'agent/inbox/dequeue' ? [event.message] : event.messages) {
        this.queued.delete(m.id)
        this.steering.delete(m.id)
      }
    }
  }
}
