export type OpenAIModelOptions = {
  /**
   * Default `https://api.openai.com/v1`; for example `http://localhost:11434/v1` for Ollama.
   * Requests go to `${baseURL}/chat/completions`, with a query string of the baseURL kept after
   * the path (`?api-version=…`). A key in it is redacted from errors like `apiKey`: the userinfo
   * (`https://user:pass@host`) and the values of query parameters named like a credential
   * (`api-key`, `key`, `token`, `sig`, `code` …); an error shows the URL without its userinfo and
   * without any query value.
   */
  readonly baseURL?: string
  /**
   * Sent as `Authorization: Bearer …`; local servers usually need none. `undefined` (an unset
   * environment variable) sends none. It is never quoted in an error: see below.
   */
  readonly apiKey?: string | undefined
  /** The model name, for example `gpt-4o-mini`. */
  readonly model: string
  /**
   * Extra request headers; they override the adapter's own. The values of credential headers (a
   * name with `auth`, `key`, `token`, `secret`, `password`, `cookie` or `session` in it) are
   * redacted from errors like the key.
   */
  readonly headers?: Readonly<Record<string, string>>
  /** A `fetch` to use instead of the global one (a proxy, a test double, a logging wrapper). */
  readonly fetch?: typeof fetch
  readonly temperature?: number
  /** Sent as `max_tokens`, which every compatible server understands. */
  readonly maxTokens?: number
  /**
   * Extra JSON fields merged last into the request body: provider options (`reasoning_effort`,
   * `max_completion_tokens` …), or an override of a default (`stream_options: undefined` for a
   * server that refuses it).
   */
  readonly extraBody?: Readonly<Record<string, unknown>>
  /**
   * How long the response headers may take to arrive, in milliseconds; default 120 000. Some
   * servers (Ollama) send them only with the first token, after reading the whole prompt.
   */
  readonly headersTimeoutMs?: number
  /**
   * How long the answer may stay silent between two chunks, in milliseconds; default 120 000. A
   * server may read a long prompt or a model reason for a while before the next chunk.
   */
  readonly idleTimeoutMs?: number
}
