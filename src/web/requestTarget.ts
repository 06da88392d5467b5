const BASE = 'http://localhost'

/**
 * The path and query of a request target that is a path on this server; `undefined` for one the
 * URL parser refuses (`//`) or that names another origin (`//evil.example/`).
 */
export const requestTarget = (target: string | undefined): URL | undefined => {
  if (target === undefined || !target.startsWith('/')) return undefined
  try {
    const url = new URL(target, BASE)
    return url.origin === BASE ? url : undefined
  } catch {
    return undefined
  }
}
