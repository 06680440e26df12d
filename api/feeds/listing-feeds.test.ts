import { XMLParser } from 'fast-xml-parser'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vinProblem, withCheckDigit } from '../../domain/vin.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { addStaff, signedInClient, staffClient } from '../../tests/support/staff.ts'
import { showroomByKey } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'

/**
 * The listing feeds (PRODUCT.md, "feeds") against the published specifications' required fields
 * and formats (versions in domain/listing-feeds.ts): only available carts, none without a VIN,
 * and a write shows in the next fetch, past the cache.
 */
const siteUrl = 'https://carts.example'
const photoKey = (n: number) => (n + 0xabc).toString(16).padStart(32, '0')
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['item', 'listing', 'component'].includes(name) })

interface CartRow {
  id: number
  stockNumber: string
  status: string
  vin: string | null
  color: string | null
  category: string
  location: string
}

describe.each(backends)('the listing feeds on %s', (backend) => {
  let server: TestServer
  let staff: ReturnType<typeof staffClient>
  const text = async (path: string) => {
    const res = await fetch(`${server.url}${path}`)
    expect(res.status, path).toBe(200)
    return { body: await res.text(), type: res.headers.get('content-type') }
  }
  const carts = async () =>
    [...(await server.db.sql<CartRow[]>`select id, stock_number, status, vin, color, category, location from golf_carts order by id`)]
  const google = async () => {
    const { body, type } = await text('/feeds/vehicle-listings.xml')
    expect(type).toMatch(/^application\/xml/)
    return (parser.parse(body).rss.channel.item ?? []) as Record<string, string>[]
  }
  const meta = async () => {
    const { body } = await text('/feeds/meta-vehicles.xml')
    return (parser.parse(body).listings.listing ?? []) as Record<string, unknown>[]
  }

  beforeAll(async () => {
    server = await startTestServer(backend, { SITE_URL: siteUrl }, { site: true })
    await addStaff(server)
    staff = (await signedInClient(server)).client
    // Street-legal carts get VINs and colours; one of them on hold, one used, one without a colour.
    const all = await carts()
    for (const [i, cart] of all.slice(0, 6).entries()) {
      const vin = withCheckDigit(`5ZEVD5R40S${String(100000 + i).padStart(7, '0')}`)
      await server.db.sql`update golf_carts set vin = ${vin}, color = ${i === 5 ? null : 'White'}, street_legal = true where id = ${cart.id}`
    }
    await server.db.sql`update golf_carts set status = 'hold' where id = ${all[1]!.id}`
    await server.db.sql`update golf_carts set category = 'used' where id = ${all[2]!.id}`
    // The first has two uploaded photos, the cover at position 0 (stored at 480 and 1600 px).
    for (const position of [1, 0]) {
      await server.db.sql`
        insert into cart_photos (cart_id, key, position, alt, width, height, widths, bytes)
        values (${all[0]!.id}, ${photoKey(position)}, ${position}, 'A photo', 1600, 1200, ${[480, 1600]}, 1000)
      `
    }
  })
  afterAll(() => server?.close())

  it('Google: lists exactly the available new carts with a VIN, each with every required attribute in its format', async () => {
    const items = await google()
    const expected = (await carts()).filter((c) => c.status === 'available' && c.vin && c.category === 'new').map((c) => c.stockNumber)
    expect(items.map((i) => i['g:id'])).toEqual(expected)
    expect(items.length).toBeGreaterThan(0)
    // Each cart names the showroom it stands at (PRODUCT.md, "cart location"), not the first one.
    const locations = new Map((await carts()).map((c) => [c.stockNumber, c.location]))
    for (const item of items) {
      const showroom = showroomByKey(locations.get(String(item['g:id']))!)!
      expect(item['g:store_code']).toBe(showroom.id)
      expect(item['g:dealership_address']).toContain(showroom.address!.city)
    }
    expect(new Set(items.map((i) => i['g:store_code'])).size).toBeGreaterThan(1)
    for (const item of items) {
      for (const field of ['g:vin', 'g:store_code', 'g:dealership_name', 'g:dealership_address', 'g:price', 'g:condition', 'g:make', 'g:model', 'g:year']) {
        expect(item[field], field).toBeTruthy()
      }
      expect(vinProblem(item['g:vin']!)).toBeUndefined()
      expect(item['g:price']).toMatch(/^\d+\.\d{2} USD$/)
      expect(item['g:condition']).toMatch(/^(new|used)$/)
      expect(item['g:year']).toMatch(/^\d{4}$/)
      expect(item['g:make']).toMatch(/^(Evolution|Denago)$/)
      expect(item['g:dealership_address']).toMatch(/, NJ \d{5}, US$/)
      expect(item['g:link']).toMatch(new RegExp(`^${siteUrl}/vehicle/[a-z0-9-]+$`))
      expect(item['g:image_link']).toMatch(new RegExp(`^${siteUrl}/(images/carts/.+\\.png|photos/[0-9a-f]{32}-1600\\.jpg)$`))
    }
  })

  it('Meta: lists the available new carts with a VIN and a colour, each with every required field in its format', async () => {
    const listings = await meta()
    const locations = new Map((await carts()).map((c) => [c.stockNumber, c.location]))
    const expected = (await carts()).filter((c) => c.status === 'available' && c.vin && c.color && c.category === 'new').map((c) => c.stockNumber)
    expect(listings.map((l) => l.vehicle_id)).toEqual(expected)
    for (const listing of listings) {
      for (const field of ['vehicle_id', 'vin', 'title', 'description', 'url', 'make', 'model', 'year', 'body_style', 'exterior_color', 'price', 'state_of_vehicle']) {
        expect(listing[field], field).toBeTruthy()
      }
      expect(String(listing.vin)).toHaveLength(17)
      expect(String(listing.description).length).toBeLessThanOrEqual(5000)
      expect(listing.body_style).toMatch(/^(CONVERTIBLE|COUPE|HATCHBACK|MINIVAN|TRUCK|SUV|SEDAN|VAN|WAGON|CROSSOVER|OTHER)$/)
      expect(listing.state_of_vehicle).toMatch(/^(NEW|USED|CPO)$/)
      expect(listing.price).toMatch(/^\d+\.\d{2} USD$/)
      expect(listing.mileage).toEqual({ value: '0', unit: 'MI' })
      expect(listing.image).toEqual({ url: expect.stringMatching(/^https:\/\/carts\.example\/(images\/carts\/.+\.png|photos\/[0-9a-f]{32}-1600\.jpg)$/), tag: 'Exterior' })
      const address = Object.fromEntries((listing.address as { component: { '@_name': string; '#text': string }[] }).component.map((c) => [c['@_name'], c['#text']]))
      expect(address).toEqual({ addr1: expect.any(String), city: expect.any(String), region: 'NJ', postal_code: expect.stringMatching(/^\d{5}$/), country: 'US' })
      expect(address.city).toBe(showroomByKey(locations.get(String(listing.vehicle_id))!)!.address!.city)
    }
  })

  it('carry the cover photo the vehicle page shows for a cart with photos, and the drawing for one without', async () => {
    const [withPhotos, , , withoutPhotos] = await carts() // the second is on hold, the third used
    const pageImage = async (id: number) => {
      const [row] = await server.db.sql<{ slug: string }[]>`select slug from golf_carts where id = ${id}`
      const { body } = await text(paths.vehicle(row!.slug))
      return /<meta property="og:image" content="([^"]+)"/.exec(body)![1]!
    }
    const productItems = parser.parse((await text('/feeds/products.xml')).body).rss.channel.item as Record<string, string>[]
    const [googleItems, metaItems] = await Promise.all([google(), meta()])
    const cover = `${siteUrl}/photos/${photoKey(0)}-1600.jpg`
    expect(await pageImage(withPhotos!.id)).toBe(cover)
    expect(googleItems.find((i) => i['g:id'] === withPhotos!.stockNumber)!['g:image_link']).toBe(cover)
    expect((metaItems.find((l) => l.vehicle_id === withPhotos!.stockNumber)!.image as { url: string }).url).toBe(cover)
    expect(productItems.find((i) => i['g:id'] === withPhotos!.stockNumber)!['g:image_link']).toBe(cover)

    const drawing = await pageImage(withoutPhotos!.id)
    expect(drawing).toMatch(new RegExp(`^${siteUrl}/images/carts/.+\\.png$`))
    expect(googleItems.find((i) => i['g:id'] === withoutPhotos!.stockNumber)!['g:image_link']).toBe(drawing)
    expect(productItems.find((i) => i['g:id'] === withoutPhotos!.stockNumber)!['g:image_link']).toBe(drawing)
  })

  it('CSV: every available cart in the import\'s columns, without serial numbers', async () => {
    const { body, type } = await text('/feeds/inventory.csv')
    expect(type).toMatch(/^text\/csv/)
    const [header, ...rows] = parse(body)
    expect(header).not.toContain('serialNumber')
    expect(header).toContain('vin')
    const available = (await carts()).filter((c) => c.status === 'available').map((c) => c.stockNumber)
    expect(rows.map((r) => r[header!.indexOf('stockNumber')])).toEqual(available)
    // The cart with photos shows its cover, not "photos coming" or a drawing (issue #47).
    const withPhotos = rows.find((r) => r[header!.indexOf('stockNumber')] === available[0])!
    expect(withPhotos[header!.indexOf('imageUrl')]).toBe(`${siteUrl}/photos/${photoKey(0)}-1600.jpg`)
    for (const row of rows.slice(1)) expect(row[header!.indexOf('imageUrl')]).toMatch(new RegExp(`^${siteUrl}/images/carts/.+\\.png$`))
  })

  it('shows a sale in the next fetch, though the feed is kept until a change', async () => {
    const [first] = await google()
    const cart = (await carts()).find((c) => c.stockNumber === first!['g:id'])!
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'sold' })
    expect((await google()).map((i) => i['g:id'])).not.toContain(cart.stockNumber)
    expect((await meta()).map((l) => l.vehicle_id)).not.toContain(cart.stockNumber)
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'available' })
    expect((await google()).map((i) => i['g:id'])).toContain(cart.stockNumber)
  })

  it('tells staff which available carts each feed leaves out, and why', async () => {
    const report = await staff.staff.feeds.report.query()
    const all = await carts()
    const withoutVin = all.filter((c) => c.status === 'available' && !c.vin)
    const byFeed = Object.fromEntries(report.map((r) => [r.feed, r]))
    expect(byFeed.google!.leftOut).toHaveLength(withoutVin.length + 1)
    expect(byFeed.google!.leftOut.find((c) => c.id === all[0]!.id)).toBeUndefined()
    expect(byFeed.google!.leftOut.find((c) => c.id === withoutVin[0]!.id)?.reasons).toEqual([expect.stringMatching(/^No VIN/)])
    expect(byFeed.google!.leftOut.find((c) => c.id === all[2]!.id)?.reasons).toEqual([expect.stringMatching(/^Used/)])
    expect(byFeed.meta!.leftOut.find((c) => c.id === all[5]!.id)?.reasons).toEqual([expect.stringMatching(/^No colour/)])
    expect(byFeed.google!.listed).toBe((await google()).length)
    await expect(staffClient(server, undefined).staff.feeds.report.query()).rejects.toThrow()
  })
})
