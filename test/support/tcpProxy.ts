/**
 * A TCP proxy on 127.0.0.1 in front of a real server, for network failures: `freeze()` stops
 * forwarding in both directions (a network that drops everything: neither end hears of it),
 * `close()` cuts every connection. Also `silentServer()`: one that accepts and never answers.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

export type TcpProxy = { readonly port: number; freeze(): void; close(): Promise<void> }

const listen = (server: Server) =>
  new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve(typeof address === 'object' && address ? address.port : 0)
    })
  })

export const tcpProxy = async (targetPort: number): Promise<TcpProxy> => {
  const sockets = new Set<Socket>()
  let frozen = false
  const server = createServer((inbound) => {
    const outbound = connect(targetPort, '127.0.0.1')
    for (const socket of [inbound, outbound]) {
      sockets.add(socket)
      socket.on('error', () => {})
      socket.on('close', () => sockets.delete(socket))
    }
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (!frozen) to.write(chunk)
      })
    forward(inbound, outbound)
    forward(outbound, inbound)
    // Frozen, a close is not passed on either: the other end never hears of it.
    inbound.on('close', () => frozen || outbound.destroy())
    outbound.on('close', () => frozen || inbound.destroy())
  })
  const port = await listen(server)
  return {
    port,
    freeze: () => {
      frozen = true
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A server that accepts connections and never says a word. */
export const silentServer = async (): Promise<{ readonly port: number; close(): Promise<void> }> => {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
  })
  const port = await listen(server)
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
