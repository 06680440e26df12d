import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import { XMLParser } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startingInventoryFile } from '../carts/starting-inventory.ts'
import { golfCartsCategory, productFeedLimits } from '../../domain/product-feed.ts'
import { showroomKeys } from '../../domain/business.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { addStaff, signedInClient, staffClient } from '../../tests/support/staff.ts'

/**
 * `/feeds/products.xml` (PRODUCT.md, "every cart on a channel"): every available cart, with or
 * without a VIN, against Google's product data specification (required attributes, formats and
 * lengths); a sale or a hold leaves it at the next fetch, past the kept answer.
 */
const siteUrl = 'https://carts.example'
const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => ['item', 'g:additional_image_link'].includes(name),
})
const starting = parse<{ stockNumber: string; status: string; vin: string }>(readFileSync(startingInventoryFile), { columns: true })
/** An `<item>`: every attribute once, but `g:additional_image_link` as a list. */
type Item = Record<string, string> & { 'g:id': string; 'g:title': string; 'g:description': string; 'g:additional_image_link'?: string[] }
const key = (n: number) => n.toString(16).padStart(32, '0')

describe.each(backends)('the product feed on %s', (backend) => {
  let server: TestServer
  let staff: ReturnType<typeof staffClient>
  const feed = async () => {
    const res = await fetch(`${server.url}/feeds/products.xml`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    const document = parser.parse(await res.text())
    expect(document.rss['@_xmlns:g']).toBe('http://base.google.com/ns/1.0')
    expect(document.rss['@_version']).toBe('2.0')
    return (document.rss.channel.item ?? []) as Item[]
  }
  const ids = async (): Promise<string[]> => (await feed()).map((item) => item['g:id'])
  const cartByStock = async (stockNumber: string) =>
    (await server.db.sql<{ id: number }[]>`select id from golf_carts where stock_number = ${stockNumber}`)[0]!

  beforeAll(async () => {
    server = await startTestServer(backend, { SITE_URL: siteUrl })
    await addStaff(server)
    staff = (await signedInClient(server)).client
  })
  afterAll(() => server?.close())

  it('lists every available cart of the starting inventory, the ones without a VIN too', async () => {
    const available = starting.filter((row) => row.status === 'available')
    const withoutVin = available.filter((row) => !row.vin)
    expect(withoutVin.length).toBeGreaterThan(0)
    const listed = await ids()
    expect(listed).toEqual(expect.arrayContaining(withoutVin.map((row) => row.stockNumber)))
    expect([...listed].sort()).toEqual(available.map((row) => row.stockNumber).sort())
  })

  it('gives every item the required attributes in their formats', async () => {
    const items = await feed()
    expect(items.length).toBeGreaterThan(0)
    for (const item of items) {
      for (const field of ['g:id', 'g:title', 'g:description', 'g:link', 'g:image_link', 'g:availability', 'g:price', 'g:condition', 'g:brand', 'g:identifier_exists', 'g:google_product_category', 'g:store_code']) {
        expect(item[field], `${item['g:id']} ${field}`).toBeTruthy()
      }
      expect(item['g:id'].length).toBeLessThanOrEqual(productFeedLimits.id)
      expect(item['g:title'].length).toBeLessThanOrEqual(productFeedLimits.title)
      expect(item['g:description'].length).toBeLessThanOrEqual(productFeedLimits.description)
      expect(item['g:link']).toMatch(new RegExp(`^${siteUrl}/vehicle/[a-z0-9-]+$`))
      expect(item['g:image_link']).toMatch(new RegExp(`^${siteUrl}/(images/carts/.+\\.png|photos/[0-9a-f]{32}-\\d+\\.jpg)$`))
      expect(item['g:price']).toMatch(/^[1-9]\d*\.\d{2} USD$/)
      expect(item['g:availability']).toBe('in_stock')
      expect(item['g:condition']).toMatch(/^(new|used|refurbished)$/)
      expect(item['g:brand']).toMatch(/^(Evolution|Denago)$/)
      expect(item['g:identifier_exists']).toBe('no')
      expect(item['g:google_product_category']).toBe(String(golfCartsCategory.id))
      expect(showroomKeys).toContain(item['g:store_code'])
      expect(item['g:vin']).toBeUndefined()
    }
    // The starting inventory deals its carts to every showroom: each is some cart's store code.
    expect(new Set(items.map((item) => item['g:store_code']))).toEqual(new Set(showroomKeys))
  })

  it('names a cart\'s showroom as its store code, its photos as its images, and keeps Google\'s lengths', async () => {
    const [first, second] = starting.filter((row) => row.status === 'available')
    const cart = await cartByStock(first!.stockNumber)
    await server.db.sql`update golf_carts set location = 'pleasantville', title = ${'T'.repeat(200)}, description = ${'D'.repeat(6000)} where id = ${cart.id}`
    const photos = Array.from({ length: 12 }, (_, i) => i)
    for (const i of photos) {
      await server.db.sql`
        insert into cart_photos (cart_id, key, position, alt, width, height, widths, bytes)
        values (${cart.id}, ${key(i + 1)}, ${i}, 'A photo', 1600, 1200, ${[480, 1600]}, 1000)
      `
    }
    const other = await cartByStock(second!.stockNumber)
    await server.db.sql`update golf_carts set location = 'waretown' where id = ${other.id}`
    const items = await feed()
    const item = items.find((i) => i['g:id'] === first!.stockNumber)!
    expect(item['g:store_code']).toBe('pleasantville')
    expect(item['g:title']).toHaveLength(productFeedLimits.title)
    expect(item['g:description']).toHaveLength(productFeedLimits.description)
    expect(item['g:image_link']).toBe(`${siteUrl}/photos/${key(1)}-1600.jpg`)
    // Google reads up to ten more images: the photos after the cover, in order.
    expect(item['g:additional_image_link']).toEqual(photos.slice(1, 1 + productFeedLimits.additionalImages).map((i) => `${siteUrl}/photos/${key(i + 1)}-1600.jpg`))
    expect(items.find((i) => i['g:id'] === second!.stockNumber)!['g:store_code']).toBe('waretown')
    expect(items.find((i) => i['g:id'] === second!.stockNumber)!['g:additional_image_link']).toBeUndefined()
  })

  it('drops a cart the moment it is sold or put on hold, and takes it back when available again', async () => {
    const [first, second] = await ids()
    const sold = await cartByStock(first!)
    const held = await cartByStock(second!)
    await staff.staff.cart.setStatus.mutate({ id: sold.id, status: 'sold' })
    expect(await ids()).not.toContain(first)
    await staff.staff.cart.setStatus.mutate({ id: held.id, status: 'hold' })
    const now = await ids()
    expect(now).not.toContain(second)
    expect(now).not.toContain(first)
    for (const cart of [sold, held]) await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'available' })
    expect(await ids()).toEqual(expect.arrayContaining([first, second]))
  })

  it('leaves out only a cart without a price or an image, and tells staff why, never for a VIN', async () => {
    const available = starting.filter((row) => row.status === 'available')
    const free = await cartByStock(available[2]!.stockNumber)
    const bare = await cartByStock(available[3]!.stockNumber)
    await server.db.sql`update golf_carts set price = 0 where id = ${free.id}`
    await server.db.sql`update golf_carts set image_url = null, title = 'Custom Build', make = null, model = null where id = ${bare.id}`
    const listed = await ids()
    expect(listed).not.toContain(available[2]!.stockNumber)
    expect(listed).not.toContain(available[3]!.stockNumber)
    expect(listed).toHaveLength(available.length - 2)

    const report = await staff.staff.feeds.report.query()
    const products = report.find((r) => r.feed === 'products')!
    expect(products.path).toBe('/feeds/products.xml')
    expect(products.listed).toBe(listed.length)
    expect(products.leftOut.map((c) => [c.id, c.reasons])).toEqual([
      [free.id, [expect.stringMatching(/^No price/)]],
      [bare.id, [expect.stringMatching(/^No image/)]],
    ].sort((a, b) => (a[0] as number) - (b[0] as number)))
    await expect(staffClient(server, undefined).staff.feeds.report.query()).rejects.toThrow()
  })
})
