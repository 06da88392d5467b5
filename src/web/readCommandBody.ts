import type { IncomingMessage } from 'node:http'

/** The largest command body `serve` reads: 1 MiB, far more than any command of the page needs. */
export const MAX_COMMAND_BODY_BYTES = 1 << 20
/** How long a command body may take to arrive, from its request's headers: 30 s. */
export const COMMAND_BODY_TIMEOUT_MS = 30_000

export type BodyLimits = { readonly maxBytes: number; readonly timeoutMs: number }

/** Why a command's body was not read: the status to answer, and a message saying what to send. */
export class CommandBodyError extends Error {
  override readonly name = 'CommandBodyError'
  constructor(
    readonly status: 400 | 408 | 413,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Reads a command's body, a JSON object (an empty body is `{}`). Rejects with `CommandBodyError`: 413
 * when the body declares or passes `maxBytes` (without reading the rest), 408 when it has not
 * ended `timeoutMs` after this call, 400 when it is not JSON. After a rejection what more comes
 * is read and dropped, so the answer can be read by a client still sending.
 */
export const readCommandBody = (req: IncomingMessage, limits: BodyLimits): Promise<object> =>
  new Promise((resolve, reject) => {
    const tooLarge = () =>
      new CommandBodyError(413, `a command body is at most ${limits.maxBytes} bytes; send a shorter one`)
    if (Number(req.headers['content-length'] ?? 0) > limits.maxBytes) {
      req.resume()
      return reject(tooLarge())
    }
    const chunks: Buffer[] = []
    let size = 0
    const fail = (error: CommandBodyError) => {
      clearTimeout(timer)
      req.off('data', take)
      req.off('end', done)
      req.resume()
      reject(error)
    }
    const take = (chunk: Buffer) => {
      size += chunk.length
      if (size > limits.maxBytes) fail(tooLarge())
      else chunks.push(chunk)
    }
    const done = () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      try {
        body = text === '' ? {} : JSON.parse(text)
      } catch (error) {
        return reject(new CommandBodyError(400, `a command body is JSON: ${(error as Error).message}`))
      }
      if (typeof body === 'object' && body !== null && !Array.isArray(body)) resolve(body)
      else reject(new CommandBodyError(400, 'a command body is a JSON object, such as {"text": "…"}'))
    }
    const timer = setTimeout(
      () => fail(new CommandBodyError(408, `the command body did not arrive within ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    )
    req.on('data', take)
    req.on('end', done)
    req.on('close', () => clearTimeout(timer))
  })
