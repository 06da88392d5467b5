import { fromEventSource } from '../../client/fromEventSource.js'
import type { PendingApproval } from '../../contracts/approvals.js'
import type { InboxSnapshot } from '../../contracts/inbox.js'
import type { AgentStatus } from '../../contracts/messages.js'
import { layoutTimeline } from '../../timeline/layout.js'
import { renderTimelineSvg } from '../../timeline/svg.js'
import type { TimelineEntry, TimelineRecord } from '../../timeline/types.js'
import { applyInboxChanges, type InboxChange } from '../inboxChanges.js'
import type { LiveTextPiece } from '../liveTextPieces.js'
import { fromEntries, type LiveTextState, renderLiveText, withEntry, withPiece } from './liveText.js'
import { post, withToken } from './post.js'
import { renderApprovals } from './renderApprovals.js'
import { renderChat } from './renderChat.js'
import { renderInbox } from './renderInbox.js'
import { renderRunningTools, showElapsed } from './renderRunningTools.js'
import { runningTools } from './runningTools.js'

const $ = (id: string) => document.getElementById(id) as HTMLElement
const prompt = $('prompt') as HTMLInputElement
let record: TimelineRecord = { format: 'steerable-timeline', version: 1, source: 'live', entries: [] }
let infos: unknown[] = []
let status: AgentStatus = 'idle'
let editing = false
let heldInbox: InboxSnapshot = { queue: [], outbox: [] }
/** The answer being streamed, shown until its durable message replaces it (R85). */
let live: LiveTextState = fromEntries([])
/** The server's clock minus the page's, from the last snapshot: the running tools' time. */
let clockOffset = 0
const serverNow = () => Date.now() + clockOffset

const act = (command: string, body: object) =>
  post(command, body).then(
    () => {
      $('error').textContent = ''
    },
    (error: Error) => {
      $('error').textContent = error.message
    },
  )

const drawInbox = (inbox: InboxSnapshot) =>
  renderInbox($('inbox'), inbox, {
    edit: (item, text) => act('replace', { id: item.message.id, text }),
    remove: (item) => act('remove', { id: item.message.id }),
    promote: (item) => act('promote', { id: item.message.id }),
    move: (item, index) => act('move', { id: item.message.id, index }),
    editing: (open) => {
      editing = open
      if (!open) drawInbox(heldInbox)
    },
  })

/** `cancel-tool` answers `{cancelled: false}` for a call that ended before the click. */
const cancelTool = (callId: string) =>
  post('cancel-tool', { callId }).then(
    ({ cancelled }) => {
      $('error').textContent = cancelled ? '' : `tool call "${callId}" had already ended`
      return true
    },
    (error: Error) => {
      $('error').textContent = error.message
      return false
    },
  )

const drawRecord = () => {
  const layout = layoutTimeline(record)
  infos = layout.infos
  $('timeline').innerHTML = renderTimelineSvg(record, layout, 'order')
  renderChat($('transcript'), record.entries)
  renderLiveText($('transcript'), live.shown)
  renderRunningTools(
    $('tools-panel'),
    $('running-tools'),
    runningTools(record.entries),
    cancelTool,
    serverNow(),
  )
}
// A running call's time goes on between entries.
setInterval(() => showElapsed($('running-tools'), serverNow()), 1000)

/** A blank reason box gives no reason (the server drops a blank one too). */
const decide = (command: 'approve' | 'deny', callId: string, reason: string) =>
  act(command, reason.trim() === '' ? { callId } : { callId, reason })
const drawApprovals = (approvals: readonly PendingApproval[]) =>
  renderApprovals($('approvals-panel'), $('approvals'), approvals, {
    approve: (callId, reason) => decide('approve', callId, reason),
    deny: (callId, reason) => decide('deny', callId, reason),
  })

/**
 * The feed gives up once the server has been unreachable through its retries (it stopped): the
 * page says so, rather than show a session that no longer changes as if it were live.
 */
function showDisconnected(): void {
  $('status').textContent = 'disconnected: the server stopped; reload the page once it runs again'
  $('status').className = 'disconnected'
}

fromEventSource<unknown>(withToken('/events'), {
  events: ['snapshot', 'entry', 'inbox', 'inbox-changes', 'status', 'approvals', 'text'],
}).subscribe({
  error: showDisconnected,
  next: ({ type, data }) => {
    if (type === 'snapshot') {
      const snapshot = data as { agentId: string; now: number; record: TimelineRecord }
      record = snapshot.record
      live = fromEntries(record.entries)
      clockOffset = snapshot.now - Date.now()
      $('agent').textContent = snapshot.agentId
    } else if (type === 'entry') {
      const entry = data as TimelineEntry
      if (entry.seq !== record.entries.length + 1) return
      record = { ...record, entries: [...record.entries, entry] }
      live = withEntry(live, entry)
    } else if (type === 'inbox' || type === 'inbox-changes') {
      // The whole inbox comes once per connection; after it, only what changed.
      heldInbox =
        type === 'inbox' ? (data as InboxSnapshot) : applyInboxChanges(heldInbox, data as InboxChange[])
      if (!editing) drawInbox(heldInbox)
      return
    } else if (type === 'status') {
      status = data as AgentStatus
      $('status').textContent = status
      $('status').className = status
      return
    } else if (type === 'text') {
      // Only the streaming line changes: the chat is not drawn again for each word.
      live = withPiece(live, data as LiveTextPiece)
      renderLiveText($('transcript'), live.shown)
      return
    } else if (type === 'approvals') {
      drawApprovals(data as PendingApproval[])
      return
    } else return
    drawRecord()
  },
})

/**
 * Enter steers the running turn (a prompt while idle); Tab queues a followup. While the turn is
 * paused a steer waits for the decision (R63, `onApproval: 'hold'`).
 */
const send = (how: 'enter' | 'queue') => {
  const text = prompt.value
  if (text.trim() === '') return
  prompt.value = ''
  act(how === 'queue' || status === 'idle' ? 'followup' : 'steer', { text })
}
/**
 * Interrupt steers with `interrupt: true` (R68): while the model streams, its answer is cut where
 * it is and the next step reads the steer; at any other moment (a tool running, idle) the server
 * takes it as a plain steer.
 */
const interrupt = () => {
  const text = prompt.value
  if (text.trim() === '') return
  prompt.value = ''
  act('steer', { text, interrupt: true })
}
prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') {
    event.preventDefault()
    send('enter')
  } else if (event.key === 'Tab' && prompt.value.trim() !== '') {
    event.preventDefault()
    send('queue')
  }
})
$('steer').addEventListener('click', () => send('enter'))
$('interrupt').addEventListener('click', interrupt)
$('queue').addEventListener('click', () => send('queue'))
$('cancel').addEventListener('click', () => act('cancel', { keepInbox: false }))
$('cancel-keep').addEventListener('click', () => act('cancel', { keepInbox: true }))
const show = (target: EventTarget | null) => {
  const el = target instanceof Element ? target.closest('[data-info]') : null
  if (el) $('details').textContent = JSON.stringify(infos[Number(el.getAttribute('data-info'))], null, 2)
}
$('timeline').addEventListener('click', (event) => show(event.target))
$('timeline').addEventListener('mouseover', (event) => show(event.target))
