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

/** What a provider's getter may throw: an Error, anything that is not one, a value that cannot be read. */
export const thrownValues = (): Readonly<Record<string, unknown>> => ({
  'an Error': new Error('the getter threw'),
  'a symbol': Symbol('thrown'),
  'a revoked Proxy': revokedProxy(),
  undefined: undefined,
})

/** `target` with a getter for `key` that throws `thrown` each time it is read. */
export const throwingField = <T extends object>(target: T, key: PropertyKey, thrown: unknown): T =>
  Object.defineProperty(target, key, {
    get() {
      throw thrown
    },
    enumerable: true,
  })

/** A Proxy whose every trap (a read, `in`, its keys, its prototype) throws `thrown`. */
export const throwingProxy = (thrown: unknown): object =>
  new Proxy(
    {},
    {
      get: () => {
        throw thrown
      },
      has: () => {
        throw thrown
      },
      ownKeys: () => {
        throw thrown
      },
      getPrototypeOf: () => {
        throw thrown
      },
      getOwnPropertyDescriptor: () => {
        throw thrown
      },
    },
  )
