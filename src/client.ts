/**
 * `steerable/client`: for a browser app that follows an agent served over server-sent events (as
 * `steerable serve` does) with RxJS.
 */
export { EventSourceGaveUpError, EventSourceMissingError } from './client/errors.js'
export {
  DEFAULT_MAX_RETRIES,
  type EventSourceLike,
  type FromEventSourceOptions,
  fromEventSource,
  type ServerEvent,
} from './client/fromEventSource.js'
