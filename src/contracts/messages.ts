/**
 * The data model of docs/contract.md, section 2, as plain TypeScript types. The zod schemas in `schemas.ts`
 * validate values of exactly these shapes; the types live here so that every module (and every
 * helper) can import them without pulling in zod.
 */

export type TextBlock = { readonly type: 'text'; readonly text: string }
export type ReasoningBlock = { readonly type: 'reasoning'; readonly text: string }
export type ToolCallBlock = {
  readonly type: 'tool-call'
  readonly id: string
  readonly name: string
  /** The raw JSON string the model produced; parsed and validated only when the tool runs. */
  readonly arguments: string
}
export type ToolResultCode =
  | 'UNKNOWN_TOOL'
  | 'INVALID_ARGUMENTS'
  | 'TOOL_ERROR'
  | 'INVALID_RESULT'
  | 'ABORTED'
  | 'ABORTED_BEFORE_DISPATCH'
  | 'NOT_RUN_MAX_TOKENS'
  /** A `'stop'` budget was passed (R80). */
  | 'NOT_RUN_BUDGET'
  /** The turn took the `maxSteps` its followup or its agent allowed (R81, R116). */
  | 'NOT_RUN_MAX_STEPS'
  /** The call waited for approval and was denied (R62, R63, R66). */
  | 'DENIED'
  /** `cancelToolCall(callId)` cancelled this call alone (R71). */
  | 'CANCELLED'
export type ToolResultBlock = {
  readonly type: 'tool-result'
  readonly toolCallId: string
  readonly content: readonly ContentBlock[]
  readonly isError?: boolean
  readonly code?: ToolResultCode
}
/**
 * Where the bytes of an image or file block are (R86): exactly one of `data`, the bytes in standard
 * base64 (no `data:` prefix, no line breaks), and `url`, an `http:`, `https:` or `data:` URL.
 */
export type BlockBytes =
  | { readonly data: string; readonly url?: undefined }
  | { readonly url: string; readonly data?: undefined }
/** An image for the model (R86): `mediaType` is `image/…`, such as `image/png`. */
export type ImageBlock = { readonly type: 'image'; readonly mediaType: string } & BlockBytes
/** A file for the model, such as a PDF (R86): `mediaType` is `type/subtype`, such as `application/pdf`. */
export type FileBlock = {
  readonly type: 'file'
  readonly mediaType: string
  readonly filename?: string
} & BlockBytes
export type ContentBlock =
  | TextBlock
  | ReasoningBlock
  | ToolCallBlock
  | ToolResultBlock
  | ImageBlock
  | FileBlock

/** Plain JSON, as accepted anywhere a producer may attach its own data. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue }

export type UserSource = { readonly kind: 'user' }
export type PluginSource = { readonly kind: 'plugin'; readonly plugin: string }
export type ToolSource = { readonly kind: 'tool'; readonly tool: string }
export type GoalSource = {
  readonly kind: 'goal'
  readonly goalId: string
  readonly revision: number
  readonly round: number
  readonly change?: JsonValue
}
/** Any other producer's source: plain JSON with a non-empty string `kind`. */
export type CustomSource = { readonly kind: string; readonly [key: string]: JsonValue | undefined }
export type MessageSource = UserSource | PluginSource | ToolSource | GoalSource | CustomSource

export type UserMessageData = {
  readonly content: readonly ContentBlock[]
  readonly source: MessageSource
}

declare const agentMessageIdBrand: unique symbol
/** A ULID minted per accepted send; ids sort in acceptance order within the process. */
export type AgentMessageId = string & { readonly [agentMessageIdBrand]: 'AgentMessageId' }

/** An accepted message: exactly the keys `id`, `content`, `source`; deep-frozen. */
export type AgentMessage = UserMessageData & { readonly id: AgentMessageId }

/** What `send` accepts: the full data, or a string shorthand for a user text message. */
export type SendInput = UserMessageData | string

export type SendTarget = 'next-turn' | 'next-step'
/**
 * What a send does when the agent is busy (an admission or turn is active, a wake is scheduled,
 * or a waking item is queued): `'accept'` queues as usual, `'reject'` throws `AgentBusyError`,
 * `'interrupt'` puts it at the head of the queue and cancels the running turn (keeping the inbox).
 */
export type IfBusy = 'accept' | 'reject' | 'interrupt'

export type SendOptions = {
  readonly target: SendTarget
  readonly wakeup: boolean
  /** Default `'accept'`. */
  readonly ifBusy?: IfBusy
  /** `next-step` only: land in turn `turn` or not at all (`TurnMismatchError`, or `expired`). */
  readonly turn?: number
  /** What the send does to tool approvals pending when it is applied (R63); default `'hold'`. */
  readonly onApproval?: OnApproval
  /**
   * `next-turn` with wakeup only: the turn this prompt opens takes at most this many steps (R81),
   * instead of the agent's `maxSteps` (R116); `Infinity` for no cap.
   */
  readonly maxSteps?: number
  /**
   * `next-step` with wakeup only: a steer applied while the model streams cuts that step's answer
   * and runs the next step with the steer in it (R68). At any other moment, a plain steer.
   */
  readonly interrupt?: boolean
}

/**
 * `'hold'`: nothing; the pause lasts until decided. `'deny'`: every approval pending when the send
 * is applied is denied, with the send's text as the reason (R63).
 */
export type OnApproval = 'hold' | 'deny'

/** The options of `followup` and `inject`. */
export type PresetOptions = { readonly ifBusy?: IfBusy; readonly onApproval?: OnApproval }
/**
 * The options of `followup`: also the most steps the turn it opens may take (R81; the agent's
 * `maxSteps` when left out, `Infinity` for no cap, R116).
 */
export type FollowupOptions = PresetOptions & { readonly maxSteps?: number }
/** The options of `steer`: also the turn it must land in. */
export type SteerOptions = {
  readonly ifBusy?: IfBusy
  readonly turn?: number
  readonly onApproval?: OnApproval
  /** Cut the answer the model is streaming now and run the next step with this steer (R68). */
  readonly interrupt?: boolean
}
export type InboxPlacement = 'queued' | 'steering'

export type AgentCancelCause = { readonly kind: 'user' } | { readonly kind: 'parent' }
/** The internal cause `dispose()` aborts with; never accepted from callers. */
export type DisposeCause = { readonly kind: 'disposed' }
export type CancelOptions = { readonly keepInbox?: boolean }

/**
 * `'paused'`: a turn waits for a person, on tool approvals (R61) or on a budget (R80); nothing
 * runs until a decision, `raiseBudget()` or `cancel()`.
 */
export type AgentStatus = 'idle' | 'running' | 'paused'

/** One message of the model-facing conversation (the surface projection, R38). */
export type Message = {
  readonly role: 'user' | 'assistant' | 'tool'
  readonly content: readonly ContentBlock[]
}

/**
 * Token usage of one model request (R73). `cachedInputTokens` is the part of `inputTokens` the
 * provider read from its cache, when it says. `estimated`: the provider sent no usage for this
 * request (it was cut, cancelled or failed, or the adapter reports none), so the tokens were
 * estimated from the text at about 4 characters a token.
 */
export type Usage = {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cachedInputTokens?: number
  readonly estimated?: true
}
