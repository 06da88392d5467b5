import { config } from 'rxjs'

/**
 * Where a failure of code outside the agent goes when it has nowhere else (a companion's close, a
 * tracer, an `onError` that threw): RxJS's `config.onUnhandledError` when the app set one (where
 * it already sends errors nobody handled), else `console.error`. Never a throw: it runs inside
 * the agent's subscribers, and a throw there would reach RxJS's unhandled-error path, which by
 * default kills the process.
 */
export const reportUnhandled = (error: unknown): void => {
  const handler = config.onUnhandledError
  if (handler) handler(error)
  else console.error(error)
}
