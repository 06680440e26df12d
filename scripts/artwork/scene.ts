/**
 * Helpers for the larger illustrations: place carts in a scene and wrap the result in one SVG
 * document whose `<defs>` hold every shared piece once.
 */
import { CART_STYLE, cartParts } from './cart.ts'
import { cartOptionsFor } from './cart-options.ts'
import { n } from './color.ts'

export class Scene {
  private readonly defs = new Map<string, string>()

  constructor(
    readonly width: number,
    readonly height: number,
    readonly title: string,
  ) {}

  define(id: string, markup: string): void {
    this.defs.set(id, markup)
  }

  /**
   * A cart drawn for `title`, rear at `x`, wheels on `ground`, `scale` times the catalogue
   * size; `flip` makes it face left. Returns the markup and the drawn width.
   */
  cart(title: string, x: number, ground: number, scale: number, flip = false): { markup: string; width: number } {
    const parts = cartParts(cartOptionsFor(title))
    for (const [id, def] of parts.defs) this.defs.set(id, def)
    const width = parts.length * scale
    const left = flip ? x + width : x
    const transform = `translate(${n(left)} ${n(ground - 480 * scale)}) scale(${flip ? '-' : ''}${n3(scale)} ${n3(scale)})`
    return { markup: `<g transform="${transform}">${parts.body}</g>`, width }
  }

  document(body: string, style = ''): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" ` +
      `viewBox="0 0 ${this.width} ${this.height}" role="img" aria-labelledby="t">` +
      `<title id="t">${this.title}</title><defs><style>${CART_STYLE}${style}</style>` +
      `${[...this.defs.values()].join('')}</defs>${body}</svg>\n`
    )
  }
}

function n3(x: number): string {
  return String(Math.round(x * 1000) / 1000)
}
