import type { SessionEvent, SessionStore } from '../../src/index.js'

/**
 * A store whose log holds `turns` finished one-step turns, each event of which counts how often
 * its `type` is read: every walk over the history reads it. So a test sees, without a clock,
 * whether an operation looked at the history at all (`reads()` after `reset()`).
 */
export const spiedHistory = (turns: number): { store: SessionStore; reads(): number; reset(): void } => {
  let reads = 0
  const events: SessionEvent[] = []
  const add = (type: SessionEvent['type'], data: unknown) => {
    const event = { seq: events.length + 1, data } as Record<string, unknown>
    Object.defineProperty(event, 'type', {
      enumerable: true,
      get: () => {
        reads++
        return type
      },
    })
    events.push(event as SessionEvent)
  }
  const text = (t: string) => [{ type: 'text', text: t }]
  const user = { kind: 'user' }
  for (let turn = 1; turn <= turns; turn++) {
    add('turn/start', { turn, trigger: { kind: 'message', source: user } })
    add('user/message', { content: text(`q${turn}`), source: user })
    add('step/start', { turn, step: 1 })
    add('assistant/message', { turn, step: 1, content: text(`a${turn}`) })
    add('step/end', { turn, step: 1 })
    add('turn/end', { turn, reason: { kind: 'completed' } })
  }
  const store: SessionStore = { load: () => events, append: () => {}, flush: () => Promise.resolve() }
  return {
    store,
    reads: () => reads,
    reset: () => {
      reads = 0
    },
  }
}
