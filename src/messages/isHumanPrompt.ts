import type { MessageSource } from '../contracts/messages.js'

/**
 * "Is this a human prompt?" (R39): answered by the source alone, never by the event type.
 * Injected context, tool context, goal rounds and plugin messages are all `user/message`s too.
 */
export const isHumanPrompt = (source: MessageSource): boolean => source.kind === 'user'
