/** The page's token (from its own address), sent with every request when there is one. */
export const token = new URLSearchParams(location.search).get('token')

/** `url` with the page's token, if any. */
export const withToken = (url: string): string => (token ? `${url}?token=${encodeURIComponent(token)}` : url)

/** Posts a command to the server; resolves with its JSON answer or rejects with its error text. */
export const post = async (command: string, body: object): Promise<{ id?: string; cancelled?: boolean }> => {
  const res = await fetch(withToken(`/api/${command}`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = (await res.json()) as { id?: string; cancelled?: boolean; error?: string }
  if (!res.ok) throw new Error(answer.error ?? `${command} failed (${res.status})`)
  return answer
}
