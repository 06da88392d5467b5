import type { ServerResponse } from 'node:http'

/**
 * Headers on every response of `serve`: no site may frame the page (clickjacking its buttons),
 * in the old header and in CSP; the page's own policy comes in its `<meta>`, which cannot say
 * `frame-ancestors`. No response is sniffed as another type.
 */
export const setGuardHeaders = (res: ServerResponse): void => {
  res.setHeader('x-frame-options', 'DENY')
  res.setHeader('content-security-policy', "frame-ancestors 'none'")
  res.setHeader('x-content-type-options', 'nosniff')
}

/**
 * Answers JSON. `close`: the connection ends after it (a body was left unread, and the client
 * may still be sending it).
 */
export const reply = (res: ServerResponse, status: number, body: unknown, close = false): void => {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...(close ? { connection: 'close' } : {}),
  })
  res.end(JSON.stringify(body))
}
