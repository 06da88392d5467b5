export { createAgent } from './agent/createAgent.js'
export type { Agent, CancelToolCallOptions, RunResult, StepText } from './contracts/agent.js'
export type { AgentErrorReport, AgentOptions, Budget } from './contracts/agentOptions.js'
export type { AgentSession } from './contracts/agentSession.js'
export type { DecisionOptions, PendingApproval } from './contracts/approvals.js'
export type { CompactionOptions, CompactOptions, Summarizer } from './contracts/compaction.js'
export {
  AgentBusyError,
  AgentDisposedError,
  ApprovalNotPendingError,
  FlushTimeoutError,
  InboxFullError,
  type InputIssue,
  InvalidInputError,
  InvariantViolation,
  MessageNotDeliveredError,
  ToolCallNotRunning,
  TurnFailedError,
  TurnMismatchError,
} from './contracts/errors.js'
export type {
  AgentErrorEvent,
  AgentEvent,
  AgentEventOf,
  AgentEventType,
  ApprovalDecisionData,
  ApprovalRequestData,
  ApprovalRequestedEvent,
  BudgetExceededEvent,
  BudgetLimits,
  BudgetPauseData,
  BudgetUsage,
  CancelRequestedEvent,
  CompactionEndEvent,
  CompactionResult,
  CompactionStartEvent,
  InboxDequeueEvent,
  InboxDiscardEvent,
  InboxEnqueueEvent,
  InboxReorderEvent,
  InboxReplaceEvent,
  RequestRetryEvent,
  SessionEvent,
  SessionEventDataMap,
  SessionEventOf,
  SessionEventType,
  SessionUsage,
  SettledEvent,
  SettledReason,
  StatusEvent,
  StreamDeltaEvent,
  ToolEndEvent,
  ToolStartEvent,
  TurnEndReason,
  TurnTrigger,
} from './contracts/events.js'
export type { GoalChange, GoalPhase, GoalState, GoalTombstone, GoalView } from './contracts/goals.js'
export type {
  AgentHooks,
  HookResult,
  PromptDecision,
  PromptSubmitArgs,
  RequestErrorArgs,
  StepArgs,
  TurnStoppingArgs,
} from './contracts/hooks.js'
export type {
  DiscardReason,
  InboxItem,
  InboxItemPlacement,
  InboxJournal,
  InboxRecord,
  InboxSnapshot,
  Outcome,
} from './contracts/inbox.js'
export type {
  AgentCancelCause,
  AgentMessage,
  AgentMessageId,
  AgentStatus,
  BlockBytes,
  CancelOptions,
  ContentBlock,
  FileBlock,
  FollowupOptions,
  IfBusy,
  ImageBlock,
  InboxPlacement,
  JsonValue,
  Message,
  MessageSource,
  OnApproval,
  PresetOptions,
  ReasoningBlock,
  SendInput,
  SendOptions,
  SendTarget,
  SteerOptions,
  TextBlock,
  ToolCallBlock,
  ToolResultBlock,
  ToolResultCode,
  Usage,
  UserMessageData,
} from './contracts/messages.js'
export type { FinishReason, ModelAdapter, ModelEvent, ModelRequest, ToolSpec } from './contracts/model.js'
export type { SessionStore } from './contracts/store.js'
export type {
  ApprovalContext,
  ToolContext,
  ToolDefinition,
  ToolEntry,
  ToolResult,
  ToolSource,
} from './contracts/tools.js'
export { createGoalController } from './goals/createGoalController.js'
export { decodeGoalEvent } from './goals/decodeGoalEvent.js'
export {
  GoalContinuationError,
  GoalEventError,
  GoalRevisionConflict,
  GoalStateError,
} from './goals/errors.js'
export { foldGoal, goalStep } from './goals/foldGoal.js'
export type { GoalController, GoalControllerOptions } from './goals/goalController.js'
export type { GoalControllerError } from './goals/reportGoalError.js'
export { renderGoalChange } from './messages/goalRender.js'
export { isHumanPrompt } from './messages/isHumanPrompt.js'
export { goalChangeSchema } from './messages/readGoalMessage.js'
export {
  cancelCauseSchema,
  contentBlockSchema,
  messageSourceSchema,
  sendOptionsSchema,
  userMessageDataSchema,
} from './messages/schemas.js'
export {
  type ConservationResult,
  type ConservationState,
  conservationStep,
  emptyConservationState,
  outstandingInbox,
} from './operators/conservationStep.js'
export { goalState } from './operators/goalState.js'
export { inboxConservation } from './operators/inboxConservation.js'
export { inboxView, inboxViewStep } from './operators/inboxView.js'
export { ofType } from './operators/ofType.js'
export { type SendPreset, sendTo } from './operators/sendTo.js'
export { statusAlternation } from './operators/statusAlternation.js'
export { surfaceMessages } from './operators/surfaceMessages.js'
export { MalformedModelEventError } from './runtime/parseModelEvent.js'
export { type FileStore, fileStore } from './session/fileStore.js'
export { ForkIncompleteError } from './session/forkIncompleteError.js'
export { type ForkOptions, type ForkResult, forkSession } from './session/forkSession.js'
export { alreadyFlushed, memoryStore } from './session/memoryStore.js'
export { projectMessages } from './session/messageProjection.js'
export { projectEvent } from './session/projectMessages.js'
export { sessionEventSchema } from './session/sessionEventSchema.js'
export { SessionLockedError, SessionLogError, SessionStoreError } from './session/storeErrors.js'
export { defineTool } from './tools/defineTool.js'
