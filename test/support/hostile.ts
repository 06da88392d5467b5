/**
 * Values outside code may throw (or return) that break naive error handling: taking their text
 * throws, or their text is not a string. Shared by the hostile-value tests and the reliability
 * model, which throws them from hooks, tools and models.
 */
const revokedProxy = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

const throwingMessage = (): Error => {
  const error = new Error('unreadable')
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('the message getter threw')
    },
  })
  return error
}

/** Each hostile value by name; a function, so each test gets fresh ones. */
export const hostileValues = (): Readonly<Record<string, unknown>> => ({
  'Object.create(null)': Object.create(null),
  'an Error whose message getter throws': throwingMessage(),
  'a revoked Proxy': revokedProxy(),
  'a symbol': Symbol('thrown'),
  'a BigInt': 10n,
  undefined: undefined,
  null: null,
  'an Error whose message is 42': Object.assign(new Error('x'), { message: 42 }),
  'an Error whose message holds a BigInt': Object.assign(new Error('x'), { message: { n: 1n } }),
  'a 1 MB message': new Error('x'.repeat(1_000_000)),
})

export const hostileNames = (): readonly string[] => Object.keys(hostileValues())
