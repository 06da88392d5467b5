import type { RunningTool } from './runningTools.js'

/** `ms` as the page shows a running call's time: `4s`, `2m 05s`, `1h 02m`. */
export const formatElapsed = (ms: number): string => {
  const s = Math.max(0, Math.floor(ms / 1000))
  const pad = (n: number) => String(n).padStart(2, '0')
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`
  return `${Math.floor(s / 3600)}h ${pad(Math.floor(s / 60) % 60)}m`
}

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, testId: string, text = '') => {
  const el = document.createElement(tag)
  el.dataset.testid = testId
  el.textContent = text
  return el
}

/** Asks the server to cancel a call; resolves whether the request was answered (not how). */
export type CancelTool = (callId: string) => Promise<boolean>

/** One running call: its name (as text: model data never becomes markup), its time, Cancel. */
const toolItem = (tool: RunningTool, cancel: CancelTool): HTMLElement => {
  const li = element('li', 'running-tool')
  li.dataset.callId = tool.callId
  if (tool.startedAt !== undefined) li.dataset.startedAt = String(tool.startedAt)
  const name = element('strong', 'running-tool-name', tool.name)
  name.title = `call ${tool.callId}, turn ${tool.turn}, step ${tool.step}`
  const button = element('button', 'cancel-tool', 'Cancel')
  button.type = 'button'
  button.title = 'Cancel this call only: the model reads CANCELLED, the turn goes on'
  button.addEventListener('click', () => {
    // One click is one request: a second would only be answered {cancelled: false}. A request
    // that failed may be tried again.
    button.disabled = true
    cancel(tool.callId).then((sent) => {
      if (!sent) button.disabled = false
    })
  })
  li.append(name, element('span', 'running-tool-elapsed'), button)
  return li
}

/**
 * Shows each call's time on the server's clock: `serverNow` is what the server's clock reads now
 * (the page's clock plus the offset its snapshot gave), so a page whose clock is off still counts
 * from when the call started.
 */
export const showElapsed = (list: HTMLElement, serverNow: number): void => {
  for (const li of Array.from(list.children)) {
    if (!(li instanceof HTMLElement) || li.dataset.startedAt === undefined) continue
    const elapsed = li.querySelector('[data-testid=running-tool-elapsed]')
    if (elapsed) elapsed.textContent = formatElapsed(serverNow - Number(li.dataset.startedAt))
  }
}

/**
 * Draws the running calls. A call still running keeps its element (and a Cancel already clicked
 * stays disabled) when the list is drawn again for another entry; the panel shows only while a
 * call runs.
 */
export const renderRunningTools = (
  panel: HTMLElement,
  list: HTMLElement,
  tools: readonly RunningTool[],
  cancel: CancelTool,
  serverNow: number,
): void => {
  const kept = new Map<string, HTMLElement>()
  for (const child of Array.from(list.children))
    if (child instanceof HTMLElement && child.dataset.callId) kept.set(child.dataset.callId, child)
  list.replaceChildren(...tools.map((t) => kept.get(t.callId) ?? toolItem(t, cancel)))
  showElapsed(list, serverNow)
  panel.hidden = tools.length === 0
}
