import type { SessionUsage } from '../contracts/events.js'

/** `950`, `1.2k`, `12k`, `3.4M`: short enough for the status line. */
export const shortCount = (n: number): string => {
  if (n < 1000) return String(n)
  const [value, unit] = n < 1_000_000 ? [n / 1000, 'k'] : [n / 1_000_000, 'M']
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)}${unit}`
}

/**
 * The session's token usage (R73) for the status line: `tokens 1.2k in / 56 out`. When some
 * requests had no usage from the provider, their tokens were estimated, and each total is marked
 * `~`. Empty before the first request.
 */
export const usageText = (usage: SessionUsage): string => {
  if (usage.requests === 0) return ''
  const about = usage.estimatedRequests > 0 ? '~' : ''
  return `tokens ${about}${shortCount(usage.inputTokens)} in / ${about}${shortCount(usage.outputTokens)} out`
}
