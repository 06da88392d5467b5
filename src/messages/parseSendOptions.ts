import type { SendOptions } from '../contracts/messages.js'
import { InputCheck } from './checkInput.js'
import { withHints } from './hints.js'
import {
  followupOptionsSchema,
  presetOptionsSchema,
  sendOptionsSchema,
  steerOptionsSchema,
} from './schemas.js'
import type { Path } from './snapshot.js'

const OPTIONS: Path = Object.freeze(['options'])

/**
 * `followup(x, {maxSteps: Infinity})` (R116): a cap no turn reaches, kept as a number the inbox
 * journal can hold as JSON (where `Infinity` would become `null`), and unlike no `maxSteps` at all,
 * which gets the agent's default.
 */
export const NO_STEP_CAP = Number.MAX_SAFE_INTEGER

/** `SendOptions`: exactly `{target: 'next-turn' | 'next-step', wakeup: boolean}`. Returns a frozen copy. */
export const parseSendOptions = (options: unknown, call = 'send()'): SendOptions => {
  const check = new InputCheck(call)
  const parsed = check.parse(sendOptionsSchema, options, OPTIONS, (issues) =>
    withHints(issues, (at) => (at === 'options' ? options : undefined)),
  )
  check.done()
  const { target, wakeup, ifBusy, turn, onApproval, maxSteps, interrupt } = parsed as SendOptions
  // 'hold' is the default: a send that says it is the same value as one that does not.
  const deny = onApproval === 'deny'
  if (ifBusy === undefined && turn === undefined && !deny && maxSteps === undefined && interrupt !== true)
    return Object.freeze({ target, wakeup })
  return Object.freeze({
    target,
    wakeup,
    ...(ifBusy === undefined ? {} : { ifBusy }),
    ...(turn === undefined ? {} : { turn }),
    ...(deny ? { onApproval } : {}),
    ...(maxSteps === undefined ? {} : { maxSteps: maxSteps === Infinity ? NO_STEP_CAP : maxSteps }),
    ...(interrupt === true ? { interrupt } : {}),
  })
}

/**
 * The options of a preset (`followup(x, {ifBusy})`, `steer(x, {ifBusy, turn})`, `inject(x,
 * {ifBusy})`) merged into its `SendOptions`; the preset itself when none are given.
 */
export const parsePresetOptions = (options: unknown, preset: SendOptions, call: string): SendOptions => {
  if (options === undefined) return preset
  const schema =
    preset.target === 'next-step'
      ? preset.wakeup
        ? steerOptionsSchema
        : presetOptionsSchema
      : followupOptionsSchema
  const check = new InputCheck(call)
  const parsed = check.parse(schema, options, OPTIONS)
  check.done()
  return parseSendOptions({ ...preset, ...parsed }, call)
}
