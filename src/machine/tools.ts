import type { Effect } from './effects.js'
import type { InputOf } from './inputs.js'
import type { Reduction } from './reduction.js'
import type { DeliveryState, ToolListRef } from './state.js'

/** An agent with tool sources starts with the list at creation in its state; this is a fallback. */
const AT_CREATION: ToolListRef = Object.freeze({ version: 0, names: Object.freeze([]) })

/**
 * R100: a tool source changed the list. The reducer notes its version and names; the next step
 * sees it (a step under way keeps its own). What the catalog dropped from the list, or a source
 * that failed, is an `agent/error` naming that source.
 */
export const toolsListed = (r: Reduction, { version, names, error }: InputOf<'tools/listed'>): void => {
  if (error !== undefined) {
    const a = r.state.activity
    const at = a?.kind === 'turn' ? { turn: a.turn, step: a.step } : { turn: r.state.lastTurn, step: 0 }
    r.live({ type: 'agent/error', agentId: r.state.agentId, ...at, error })
  }
  const tools = r.state.tools
  if (tools !== undefined && tools.latest.version >= version) return
  r.set({ tools: { latest: { version, names }, step: tools?.step ?? AT_CREATION } })
}

/**
 * R100: at a step's start, before its request: the list it sees is the latest, and when its names
 * differ from the previous step's, a durable `tools/changed {added, removed}` says how.
 * Returns the version the step sees (0: the list at creation).
 */
export const stepSeesTools = (r: Reduction): number => {
  const tools = r.state.tools
  if (tools === undefined) return 0
  if (tools.latest.version === tools.step.version) return tools.step.version
  const before = new Set(tools.step.names)
  const now = new Set(tools.latest.names)
  const added = tools.latest.names.filter((name) => !before.has(name))
  const removed = tools.step.names.filter((name) => !now.has(name))
  if (added.length > 0 || removed.length > 0) r.durable({ type: 'tools/changed', data: { added, removed } })
  r.set({ tools: { latest: tools.latest, step: tools.latest } })
  return tools.latest.version
}

type ToolsEffect = Extract<Effect, { readonly kind: 'tools' }>

/** A `tools` effect of the running step, with the version of the list it saw (absent: at creation). */
export const toolsEffect = (s: DeliveryState, effect: Omit<ToolsEffect, 'kind' | 'tools'>): ToolsEffect => {
  const version = s.tools?.step.version
  return version === undefined || version === 0
    ? { kind: 'tools', ...effect }
    : { kind: 'tools', ...effect, tools: version }
}
