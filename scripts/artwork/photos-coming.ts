import { drawGolfCart } from './cart.ts'

/**
 * The neutral picture of a cart that has no photos yet and names no catalogue model
 * (domain/cart-pictures.ts): a plain silver cart with "Photos coming soon" beneath it, so a
 * visitor reads it as a placeholder, not as the cart itself.
 */
export function photosComingSvg(): string {
  const cart = drawGolfCart({
    title: 'Photos coming soon',
    seats: 4,
    rearFacing: false,
    lifted: false,
    cargoBed: false,
    bodyColour: '#B9C0C8',
    style: 'modern',
  })
  const caption =
    `<rect x="200" y="505" width="400" height="62" rx="31" fill="#FFFFFF" stroke="#9CA3AF" stroke-width="2"/>` +
    `<text x="400" y="546" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="28" font-weight="700" fill="#374151">Photos coming soon</text>`
  return cart.replace(/<\/svg>\n$/, `${caption}</svg>\n`)
}
