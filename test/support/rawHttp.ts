import { type IncomingHttpHeaders, request } from 'node:http'

/** A reply read whole: its status, headers and body text. */
export type RawReply = {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export type RawRequestOptions = {
  readonly method?: string
  /** The request target as sent, unparsed (`//`, `*`): default the url's path and query. */
  readonly path?: string
  /** A Host header of our choosing (node's fetch will not send one). */
  readonly host?: string
  readonly type?: string
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A request whose body the test writes piece by piece (`write`, `end`); `reply` settles when the
 * whole reply has come, also when the server answers before the body ends.
 */
export type OpenRequest = {
  write(chunk: string | Buffer): void
  end(chunk?: string | Buffer): void
  /** Ends the request and its connection, whatever is left. */
  abort(): void
  /** The status and headers, as soon as they come (an event stream's never ends). */
  readonly head: Promise<Omit<RawReply, 'body'>>
  readonly reply: Promise<RawReply>
}

export const openRequest = (url: string, options: RawRequestOptions = {}): OpenRequest => {
  const target = new URL(url)
  let settle!: { resolve: (reply: RawReply) => void; reject: (error: unknown) => void }
  const reply = new Promise<RawReply>((resolve, reject) => {
    settle = { resolve, reject }
  })
  let headed!: (head: Omit<RawReply, 'body'>) => void
  const head = new Promise<Omit<RawReply, 'body'>>((resolve) => {
    headed = resolve
  })
  const req = request(
    {
      host: target.hostname,
      port: target.port,
      path: options.path ?? `${target.pathname}${target.search}`,
      method: options.method ?? 'GET',
      headers: {
        ...(options.host ? { host: options.host } : {}),
        ...(options.type ? { 'content-type': options.type } : {}),
        ...options.headers,
      },
    },
    (res) => {
      headed({ status: res.statusCode ?? 0, headers: res.headers })
      let body = ''
      res.on('data', (c: Buffer) => {
        body += c.toString()
      })
      res.on('end', () => settle.resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      res.on('error', (error) => settle.reject(error))
    },
  )
  // Sent now, not with the first piece of the body: a test may never send one.
  req.flushHeaders()
  // Once the reply has come, a write the server no longer reads may fail: that is not the test's.
  req.on('error', (error) => settle.reject(error))
  return {
    write: (chunk) => {
      req.write(chunk)
    },
    end: (chunk) => {
      req.end(chunk)
    },
    abort: () => {
      // Whatever the reply was going to be, the test no longer waits for it.
      reply.catch(() => undefined)
      req.destroy()
    },
    head,
    reply,
  }
}

/** One raw HTTP request with its whole body. */
export const call = (url: string, options: RawRequestOptions & { readonly body?: string } = {}) => {
  const open = openRequest(url, options)
  open.end(options.body)
  return open.reply
}
