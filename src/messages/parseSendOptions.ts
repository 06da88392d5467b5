import { InvalidInputError } from '../contracts/errors.js'
import type { SendOptions } from '../contracts/messages.js'
import { guarded } from './guarded.js'
import { withHints } from './hints.js'
import { presetOptionsSchema, sendOptionsSchema, steerOptionsSchema } from './schemas.js'
import { toInputIssues } from './toInputIssues.js'

/** `SendOptions`: exactly `{target: 'next-turn' | 'next-step', wakeup: boolean}`. Returns a frozen copy. */
export const parseSendOptions = (options: unknown, call = 'send()'): SendOptions => {
  const result = guarded(call, ['options'], () => sendOptionsSchema.safeParse(options))
  if (!result.success) {
    const issues = toInputIssues(result.error, ['options'], options)
    throw new InvalidInputError(
      call,
      withHints(issues, (at) => (at === 'options' ? options : undefined)),
    )
  }
  const { target, wakeup, ifBusy, turn } = result.data
  if (ifBusy === undefined && turn === undefined) return Object.freeze({ target, wakeup })
  return Object.freeze({
    target,
    wakeup,
    ...(ifBusy === undefined ? {} : { ifBusy }),
    ...(turn === undefined ? {} : { turn }),
  })
}

/**
 * The options of a preset (`followup(x, {ifBusy})`, `steer(x, {ifBusy, turn})`, `inject(x,
 * {ifBusy})`) merged into its `SendOptions`; the preset itself when none are given.
 */
export const parsePresetOptions = (options: unknown, preset: SendOptions, call: string): SendOptions => {
  if (options === undefined) return preset
  const schema = preset.target === 'next-step' && preset.wakeup ? steerOptionsSchema : presetOptionsSchema
  const result = guarded(call, ['options'], () => schema.safeParse(options))
  if (!result.success) throw new InvalidInputError(call, toInputIssues(result.error, ['options'], options))
  return parseSendOptions({ ...preset, ...result.data }, call)
}
