import type { ContentBlock, UserMessageData } from '../contracts/messages.js'
import { isGoalStateText } from './goalMessageIssue.js'
import { userSource } from './userText.js'

/**
 * The common send, text blocks from the user: `{content: [{type: 'text', text}, …], source:
 * {kind: 'user'}}`, checked and copied by hand (docs/performance.md#the-user-text-fast-path).
 * Anything else, valid or not, gives `undefined` and takes the full path, which also words the
 * errors; what this accepts, the full path accepts with an equal result (a property test says so).
 *
 * @returns the string `s` when the value is exactly the shorthand's for `s` (one text block, keys
 * in the order `type`, `text`), so such a send costs what the string form costs and is queued as
 * compactly; else the deep-frozen data, or `undefined`.
 */
export const userTextFastPath = (content: unknown, source: unknown): UserMessageData | string | undefined => {
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype) return undefined
  if (
    content.length === 0 ||
    keyOrder(source, 'kind', 'kind') === NOT ||
    (source as { kind: unknown }).kind !== 'user'
  )
    return undefined
  let blocks: ContentBlock[] | undefined
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i]
    const order = keyOrder(block, 'type', 'text')
    if (order === NOT) return undefined
    const { type, text } = block as { type: unknown; text: unknown }
    if (type !== 'text' || typeof text !== 'string') return undefined
    // Text that claims to be goal state takes the full path, which refuses it (R33).
    if (i === 0 && isGoalStateText(text)) return undefined
    if (order === FIRST && content.length === 1) return text
    blocks ??= new Array<ContentBlock>(content.length)
    // Keys in the caller's order, as the full path's copy keeps them (JSON lines look the same).
    blocks[i] = Object.freeze(order === FIRST ? { type, text } : { text, type })
  }
  return Object.freeze({ content: Object.freeze(blocks as ContentBlock[]), source: userSource })
}

const NOT = 0
const FIRST = 1
/**
 * Whether `value` is a plain object (prototype `Object.prototype`) whose enumerable keys,
 * inherited ones included, are exactly `a` and `b` (one key when they are the same), with no own
 * symbol keys; and if so, which comes first. One pass, as this runs per block of every send.
 *
 * @returns `NOT` (0), `FIRST` (1) when `a` comes first, or 2 when `b` does.
 */
const keyOrder = (value: unknown, a: string, b: string): number => {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return NOT
  let count = 0
  let order = NOT
  for (const key in value) {
    if (key !== a && key !== b) return NOT
    if (count === 0) order = key === a ? FIRST : 2
    count++
  }
  return count === (a === b ? 1 : 2) && Object.getOwnPropertySymbols(value).length === 0 ? order : NOT
}
