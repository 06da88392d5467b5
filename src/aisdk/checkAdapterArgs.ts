import { describeError } from '../adapterKit/statusHint.js'
import { WAIT_LIMIT_RULES } from '../adapterKit/waitLimits.js'
import { checkInput, type InputCheck } from '../messages/checkInput.js'
import type { FromLanguageModelOptions } from './options.js'

const example = "for example anthropic('claude-sonnet-4-5') from '@ai-sdk/anthropic'"

/** The model as errors name it, and the version of the provider interface it implements. */
export type CheckedModel = { readonly name: string; readonly version: 'v3' | 'v4' }

/**
 * `fromLanguageModel(model, options)`, checked at once: the model as errors name it
 * (`anthropic.messages claude-sonnet-4-5`) and its version, once it is checked to be a provider's
 * model of version 3 or 4, and the timeouts. One `InvalidInputError` lists every problem.
 */
export const checkAdapterArgs = (model: unknown, options: FromLanguageModelOptions): CheckedModel =>
  checkInput('fromLanguageModel()', (check) => {
    const checked = checkModel(check, model)
    if (typeof options !== 'object' || options === null)
      check.add(['options'], 'expected an object such as { callOptions: { temperature: 0 } }, or no options')
    else check.fields(options, ['options'], WAIT_LIMIT_RULES)
    return checked as CheckedModel
  })

/**
 * Each field of the model is read once; a model that throws when read (a getter, a Proxy) is
 * refused like any other non-model.
 */
const checkModel = (check: InputCheck, model: unknown): CheckedModel | undefined => {
  if (typeof model === 'string')
    return void check.add(
      ['model'],
      `got the model id '${model}'; pass the model of a provider package, ${example}`,
    )
  let fields: { version?: unknown; doStream?: unknown; name?: string } = {}
  try {
    if (typeof model === 'object' && model !== null) {
      const m = model as {
        specificationVersion?: unknown
        doStream?: unknown
        provider?: unknown
        modelId?: unknown
      }
      fields = {
        version: m.specificationVersion,
        doStream: m.doStream,
        name: `${String(m.provider)} ${String(m.modelId)}`,
      }
    }
  } catch (thrown) {
    return void check.add(
      ['model'],
      `cannot be read (reading it threw ${describeError(thrown)}); pass the model of a provider package, ${example}`,
    )
  }
  if (typeof fields.doStream !== 'function' || fields.name === undefined)
    return void check.add(
      ['model'],
      `expected a language model of an AI SDK provider package (an object with doStream), ${example}`,
    )
  if (fields.version !== 'v4' && fields.version !== 'v3')
    return void check.add(
      ['model'],
      `this model implements the provider interface ${String(fields.version)}; ` +
        'versions v3 (ai 6) and v4 (ai 7) are supported: update the provider package',
    )
  return { name: fields.name, version: fields.version }
}
