import type { ContentBlock, FileBlock, ImageBlock } from '../../contracts/messages.js'

/** An image or file block of a message (R86), as the chat shows it. */
export type MediaBlock = ImageBlock | FileBlock

/**
 * The image types the chat draws as pictures: the raster types the model APIs take. Anything else
 * (an SVG, a file, an image given by URL) is a label: a picture the page draws is only ever bytes
 * the message holds, never a request to another server (the page's CSP allows `data:` images only).
 */
const DRAWN = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
/** Standard base64, as R86 has it: anything else is not put in a URL. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The image and file blocks of `content`, in order, those inside tool results included. */
export const mediaOf = (content: readonly ContentBlock[]): MediaBlock[] =>
  content.flatMap((b) =>
    b.type === 'image' || b.type === 'file' ? [b] : b.type === 'tool-result' ? mediaOf(b.content) : [],
  )

/** The longest URL a label shows whole. */
const URL_SHOWN = 120

/**
 * What a block's label says: `[image image/png]`, `[file report.pdf]`, with its `http(s):` URL
 * when it has one (cut after 120 characters; a `data:` URL is bytes, not an address to show).
 */
export const mediaLabel = (block: MediaBlock): string => {
  const name = block.type === 'file' && block.filename ? block.filename : block.mediaType
  const url = block.url !== undefined && /^https?:/i.test(block.url) ? block.url : undefined
  const shown = url === undefined ? '' : ` ${url.length > URL_SHOWN ? `${url.slice(0, URL_SHOWN)}…` : url}`
  return `[${block.type} ${name}${shown}]`
}

/**
 * One block as an element, built with DOM calls (nothing the message holds is parsed as markup):
 * an `<img>` for base64 bytes of a raster image, a label otherwise.
 */
export const mediaElement = (block: MediaBlock): HTMLElement => {
  if (
    block.type === 'image' &&
    block.data !== undefined &&
    DRAWN.has(block.mediaType) &&
    BASE64.test(block.data)
  ) {
    const img = document.createElement('img')
    img.className = 'media'
    img.dataset.testid = 'media-image'
    img.alt = mediaLabel(block)
    img.src = `data:${block.mediaType};base64,${block.data}`
    return img
  }
  const label = document.createElement('span')
  label.className = 'media'
  label.dataset.testid = 'media-label'
  label.textContent = mediaLabel(block)
  return label
}
