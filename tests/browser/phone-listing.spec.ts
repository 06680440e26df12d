import sharp from 'sharp'
import { photoPath } from '../../domain/photos.ts'
import { slugify } from '../../domain/slug.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { listCartFromPhone, lotCart, lotPhotos, recordUploadSizes } from '../support/phone-listing.ts'
import { desktop, expect, onPhone, phone, sidewaysScroll, test, visitHydrated } from './fixtures.ts'

/**
 * Listing a cart from the lot on a phone (issue #30): at 390 px with touch, from an empty form,
 * the facts typed and five 3-4 MB camera photos picked at once, to Publish; then the cart is on
 * /inventory and its vehicle page shows the facts typed and the photos in the order picked, the
 * first as the cover. The same script, on a throttled connection, is `npm run bench -- listing`.
 */
test.use({ staffAccounts: [[{ username: 'maria' }], { scope: 'worker' }], signedInAs: 'maria' })

test.describe('on a phone', () => {
  test.use(onPhone)

  test('lists a new cart from an empty form at 390 px: five photos picked at once keep their order and cover, Publish puts it on the site', async ({ page, context, server, problems, newPage }) => {
    // Five 12-megapixel photos scaled in the page, on a loaded machine: the time the vitest test had.
    test.setTimeout(420_000)
    await recordUploadSizes(context)
    const photos = await lotPhotos()
    const listed = await listCartFromPhone(page, server.url, photos)
    await expect(page.getByRole('status').first()).toContainText('Published')

    // Stored as typed, published, its title built from the facts; each photo scaled on the phone.
    const cart = (await server.runtime.services.staff.cartRecords.get(listed.id))!
    expect(cart).toMatchObject({ title: lotCart.title, status: 'available', price: 13495, stockNumber: lotCart.stockNumber, color: lotCart.color, seats: 4, battery: 'lithium' })
    expect(listed.uploads).toHaveLength(5)
    for (const size of listed.uploads) expect(size).toBeLessThan(1_500_000)
    // In the order picked, whichever upload finished first: each stored photo's tint, first to last.
    const reds = await Promise.all(
      cart.photos.map(async (photo) => {
        const file = await fetch(`${server.url}${photoPath(photo.key, photo.widths[0]!, 'jpeg')}`)
        return Math.round((await sharp(Buffer.from(await file.arrayBuffer())).stats()).channels[0]!.mean)
      }),
    )
    expect(reds).toHaveLength(5)
    expect([...reds].sort((a, b) => a - b)).toEqual(reds)

    // On the site: the inventory's card with the cover, and the vehicle page with the facts typed.
    const { page: visitor } = await newPage({ viewport: phone })
    await visitHydrated(visitor, `${server.url}/inventory?q=${encodeURIComponent(lotCart.stockNumber)}`)
    const card = visitor.locator('.gc-inventory .gc-card', { hasText: lotCart.title })
    await expect(card).toHaveCount(1)
    await expect(card.locator('img').first()).toHaveAttribute('src', new RegExp(cart.photos[0]!.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    // The seed has a cart of this title already: this one's address is its own (the record's slug).
    expect(cart.slug).toMatch(new RegExp(`^${slugify(lotCart.title)}`))
    await visitor.goto(`${server.url}/vehicle/${cart.slug}`)
    await expect(visitor.locator('main h1')).toHaveText(lotCart.title)
    const facts = await visitor.locator('.gc-spec-row').allTextContents()
    expect(facts).toEqual(expect.arrayContaining([`Stock Number${lotCart.stockNumber}`, `Color${lotCart.color}`, 'Seating4 Passengers']))
    await expect(visitor.locator('main')).toContainText('$13,495')
    expect(problems).toEqual([])
  })
})

for (const [name, viewport] of [
  ['390', phone],
  ['1280', desktop],
] as const) {
  test.describe(`at ${name} px`, () => {
    test.use({ viewport })

    test('the new cart form passes axe', async ({ page, server, axe }) => {
      await page.goto(`${server.url}${staffPaths.newCart}`)
      await expect(page.locator('html')).toHaveAttribute('data-staff-ready')
      expect(await axe()).toEqual([])
      expect(await sidewaysScroll(page)).toBe(0)
    })
  })
}
