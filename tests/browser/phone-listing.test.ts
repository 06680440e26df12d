import sharp from 'sharp'
import { expect, it } from 'vitest'
import { photoPath } from '../../domain/photos.ts'
import { slugify } from '../../domain/slug.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { axeViolations } from '../support/browser.ts'
import { listCartFromPhone, lotCart, lotPhotos, recordUploadSizes } from '../support/phone-listing.ts'
import { desktop, phone, useSite } from '../support/site-visits.ts'
import { addStaff, staffPassword } from '../support/staff.ts'

/**
 * Listing a cart from the lot on a phone (issue #30): at 390 px with touch, from an empty form,
 * the facts typed and five 3-4 MB camera photos picked at once, to Publish; then the cart is on
 * /inventory and its vehicle page shows the facts typed and the photos in the order picked, the
 * first as the cover. The same script, on a throttled connection, is `npm run bench -- listing`.
 */
const site = useSite()

it('lists a new cart from an empty form at 390 px: five photos picked at once keep their order and cover, Publish puts it on the site', async () => {
  await addStaff(site.server)
  const context = await site.newContext({ viewport: phone, hasTouch: true, isMobile: true })
  await recordUploadSizes(context)
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  await page.goto(`${site.server.url}/staff/login`)
  await page.getByLabel('Username').fill('maria')
  await page.getByLabel('Password').fill(staffPassword)
  await page.getByRole('button', { name: 'Sign in' }).tap()
  await page.waitForURL(`${site.server.url}/staff`)

  const photos = await lotPhotos()
  const listed = await listCartFromPhone(page, site.server.url, photos)
  expect(await page.getByRole('status').first().textContent()).toContain('Published')

  // Stored as typed, published, its title built from the facts; each photo scaled on the phone.
  const cart = (await site.server.runtime.services.staff.cartRecords.get(listed.id))!
  expect(cart).toMatchObject({ title: lotCart.title, status: 'available', price: 13495, stockNumber: lotCart.stockNumber, color: lotCart.color, seats: 4, battery: 'lithium' })
  expect(listed.uploads).toHaveLength(5)
  for (const size of listed.uploads) expect(size).toBeLessThan(1_500_000)
  // In the order picked, whichever upload finished first: each stored photo's tint, first to last.
  const reds = await Promise.all(
    cart.photos.map(async (photo) => {
      const file = await fetch(`${site.server.url}${photoPath(photo.key, photo.widths[0]!, 'jpeg')}`)
      return Math.round((await sharp(Buffer.from(await file.arrayBuffer())).stats()).channels[0]!.mean)
    }),
  )
  expect(reds).toHaveLength(5)
  expect([...reds].sort((a, b) => a - b)).toEqual(reds)

  // On the site: the inventory's card with the cover, and the vehicle page with the facts typed.
  const visitor = await site.visit(`/inventory?q=${encodeURIComponent(lotCart.stockNumber)}`, phone)
  const card = visitor.page.locator('.gc-inventory .gc-card', { hasText: lotCart.title })
  await expect.poll(() => card.count()).toBe(1)
  expect(await card.locator('img').first().getAttribute('src')).toContain(cart.photos[0]!.key)
  // The seed has a cart of this title already: this one's address is its own (the record's slug).
  expect(cart.slug).toMatch(new RegExp(`^${slugify(lotCart.title)}`))
  await visitor.page.goto(`${site.server.url}/vehicle/${cart.slug}`)
  expect(await visitor.page.locator('main h1').textContent()).toBe(lotCart.title)
  const facts = await visitor.page.locator('.gc-spec-row').allTextContents()
  expect(facts).toEqual(expect.arrayContaining([`Stock Number${lotCart.stockNumber}`, `Color${lotCart.color}`, 'Seating4 Passengers']))
  expect(await visitor.page.locator('main').textContent()).toContain('$13,495')
  expect(problems).toEqual([])
}, 420_000)

it.each([
  ['390', phone],
  ['1280', desktop],
] as const)('the new cart form passes axe at %s px', async (_, viewport) => {
  const context = await site.newContext({ viewport })
  const page = await context.newPage()
  await page.goto(`${site.server.url}/staff/login`)
  await page.getByLabel('Username').fill('maria')
  await page.getByLabel('Password').fill(staffPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(`${site.server.url}/staff`)
  await page.goto(`${site.server.url}${staffPaths.newCart}`)
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-staff-ready'))
  expect(await axeViolations(page)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0)
})
