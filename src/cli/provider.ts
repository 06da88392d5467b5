import { fromLanguageModel } from '../aisdk.js'
import type { ModelAdapter } from '../contracts/model.js'
import { openaiModel } from '../openai.js'

/** A provider package of the AI SDK: its factory, where it reads its key, a model to name. */
type Provider = {
  readonly packageName: string
  readonly factory: string
  readonly keyVariable: string
  readonly exampleModel: string
}

const provider = (name: string, factory: string, keyVariable: string, exampleModel: string): Provider => ({
  packageName: `@ai-sdk/${name}`,
  factory,
  keyVariable,
  exampleModel,
})

/** The providers `--provider` knows: one package, one API key in one environment variable each. */
export const PROVIDERS: Readonly<Record<string, Provider>> = {
  anthropic: provider('anthropic', 'createAnthropic', 'ANTHROPIC_API_KEY', 'claude-sonnet-4-5'),
  openai: provider('openai', 'createOpenAI', 'OPENAI_API_KEY', 'gpt-4o-mini'),
  google: provider('google', 'createGoogleGenerativeAI', 'GOOGLE_GENERATIVE_AI_API_KEY', 'gemini-2.5-flash'),
  mistral: provider('mistral', 'createMistral', 'MISTRAL_API_KEY', 'mistral-large-latest'),
  groq: provider('groq', 'createGroq', 'GROQ_API_KEY', 'llama-3.3-70b-versatile'),
  deepseek: provider('deepseek', 'createDeepSeek', 'DEEPSEEK_API_KEY', 'deepseek-chat'),
  xai: provider('xai', 'createXai', 'XAI_API_KEY', 'grok-4'),
}

/** A `--provider` that cannot be used as given; the message says what to do. */
export class ProviderSetupError extends Error {
  override readonly name = 'ProviderSetupError'
}

export type ProviderChoice = {
  readonly provider: string
  readonly model?: string
  readonly apiKey?: string
  readonly baseURL?: string
}

/**
 * The model of `--provider NAME --model ID`: the provider package is loaded with a dynamic import
 * from wherever the app installed it (it is no dependency of steerable), its factory is given the
 * key (`--api-key`, else the provider's usual environment variable) and `--base-url` if any, and
 * the model goes through `fromLanguageModel`. `--provider openai --base-url URL` is the exception:
 * an OpenAI-compatible server gets Chat Completions from `openaiModel` (the package's default model
 * calls the Responses API, which only OpenAI has); without `--base-url`, @ai-sdk/openai talks to
 * OpenAI itself.
 *
 * @throws ProviderSetupError for an unknown provider, a missing model name or key, a package that
 *   is not installed or exports no such factory, each with the fix.
 */
export const providerModel = async (
  choice: ProviderChoice,
  env: NodeJS.ProcessEnv,
): Promise<ModelAdapter> => {
  const known = PROVIDERS[choice.provider]
  if (known === undefined || !Object.hasOwn(PROVIDERS, choice.provider))
    throw new ProviderSetupError(
      `--provider ${choice.provider}: not one this app knows; use one of ${Object.keys(PROVIDERS).join(', ')}, ` +
        'or --base-url for any OpenAI-compatible server',
    )
  const { packageName, factory, keyVariable, exampleModel } = known
  if (choice.model === undefined)
    throw new ProviderSetupError(
      `--provider ${choice.provider}: name the model with --model, for example --model ${exampleModel}`,
    )
  // OpenAI-compatible servers (Ollama, vLLM, LM Studio …) speak Chat Completions and have no
  // /v1/responses, which @ai-sdk/openai's default model calls: with --base-url, steerable's own
  // Chat Completions adapter, which needs no package and sends a key only when there is one.
  if (choice.provider === 'openai' && choice.baseURL)
    return openaiModel({
      model: choice.model,
      baseURL: choice.baseURL,
      apiKey: choice.apiKey ?? env[keyVariable],
    })
  const apiKey = choice.apiKey ?? env[keyVariable]
  if (!apiKey)
    throw new ProviderSetupError(`--provider ${choice.provider}: set ${keyVariable} (or pass --api-key)`)
  const module = await load(packageName, choice.provider)
  const create = module[factory]
  if (typeof create !== 'function')
    throw new ProviderSetupError(
      `${packageName} has no ${factory}(); install a current release: npm install ${packageName}@latest`,
    )
  const settings = { apiKey, ...(choice.baseURL ? { baseURL: choice.baseURL } : {}) }
  const instance = (create as (settings: object) => (model: string) => unknown)(settings)
  return fromLanguageModel(instance(choice.model) as Parameters<typeof fromLanguageModel>[0])
}

const load = async (packageName: string, name: string): Promise<Record<string, unknown>> => {
  try {
    // A name held in a variable: bundlers leave the import alone, and Node resolves it from here
    // upwards, through the app's node_modules.
    return (await import(packageName)) as Record<string, unknown>
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
    if (code === 'ERR_MODULE_NOT_FOUND' && String(message).includes(packageName))
      throw new ProviderSetupError(
        `--provider ${name} needs the package ${packageName}, which is not installed: npm install ${packageName}`,
      )
    throw new ProviderSetupError(`--provider ${name}: ${packageName} failed to load: ${String(message)}`)
  }
}
