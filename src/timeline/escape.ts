/** `text` safe inside HTML or SVG text and inside a quoted attribute: it is user data. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * `value` as JSON safe inside a `<script type="application/json">` element: no `<` (so no
 * `</script>` or `<!--`) and no line separators that old parsers choke on.
 */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
