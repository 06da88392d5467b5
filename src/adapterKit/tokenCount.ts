/**
 * Whether a provider's usage value is a token count: a finite number, 0 or more. Both adapters
 * drop what is not one (a negative count, an infinite one, a string) instead of failing the
 * request: usage is the provider's bookkeeping, not the answer, and a request without it is
 * estimated (R73).
 */
export const isTokenCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0
