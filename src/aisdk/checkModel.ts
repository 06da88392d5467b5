import { describeError } from '../adapterKit/statusHint.js'

const example = "for example anthropic('claude-sonnet-4-5') from '@ai-sdk/anthropic'"

/**
 * The model as errors name it (`anthropic.messages claude-sonnet-4-5`) and the version of the
 * provider interface it implements, once it is checked to be a provider's model of version 3 or 4.
 * Each field is read once; a model that throws when read (a getter, a Proxy) is refused like any
 * other non-model.
 */
export const checkModel = (model: unknown): { readonly name: string; readonly version: 'v3' | 'v4' } => {
  if (typeof model === 'string')
    throw new TypeError(
      `fromLanguageModel(): got the model id '${model}'; pass the model of a provider package, ${example}`,
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
    throw new TypeError(
      `fromLanguageModel(): the model cannot be read (reading it threw ${describeError(thrown)}); ` +
        `pass the model of a provider package, ${example}`,
    )
  }
  if (typeof fields.doStream !== 'function' || fields.name === undefined)
    throw new TypeError(
      'fromLanguageModel(): expected a language model of an AI SDK provider package (an object with ' +
        `doStream), ${example}`,
    )
  if (fields.version !== 'v4' && fields.version !== 'v3')
    throw new TypeError(
      `fromLanguageModel(): this model implements the provider interface ${String(fields.version)}; ` +
        'versions v3 (ai 6) and v4 (ai 7) are supported: update the provider package',
    )
  return { name: fields.name, version: fields.version }
}
