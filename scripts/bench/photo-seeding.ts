import { processPhoto } from '../../api/photos/processing.ts'
import type { Services } from '../../api/services.ts'
import { cameraPhoto } from './photo-fixture.ts'

/**
 * Camera-like photos on carts, straight through the store (no HTTP): `perCart` photos on the
 * first cart, one on every other. Fixtures are made once and reused with a different seed each.
 */
export async function photographCarts(services: Services, options: { slugs?: string[]; perCart?: number } = {}): Promise<{ photos: number; ms: number }> {
  const started = performance.now()
  const { carts } = await services.carts.list({})
  const chosen = options.slugs ? carts.filter((c) => options.slugs!.includes(c.slug)) : carts
  const actor = { id: null, name: 'bench' }
  let photos = 0
  for (const [i, cart] of chosen.entries()) {
    const count = i === 0 ? (options.perCart ?? 1) : 1
    for (let n = 0; n < count; n++) {
      const processed = await processPhoto(await cameraPhoto(i * 31 + n))
      await services.photos.add(actor, cart.id, processed)
      photos++
    }
  }
  return { photos, ms: Math.round(performance.now() - started) }
}
