import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { addStaff, signedInClient } from '../../tests/support/staff.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { migrate } from '../db/migrate.ts'
import { createServices, type Services } from '../services.ts'
import { stagePhotos, unstagePhotos } from '../carts/import-photos.ts'
import type { Actor } from './audit.ts'

/**
 * Photos an inventory import names by URL (PRODUCT.md, "Import"): fetched from an allowed host
 * (here a server on 127.0.0.1, which the policy trusts for the test), checked by the photo
 * processor, stored with the cart in the import's transaction; the export names them at this
 * site's own addresses and importing that again changes nothing.
 */
const actor: Actor = { id: null, name: 'npm run inventory' }
const header = 'stockNumber,title,description,price,status,imageUrl,photos'
const image = '/images/carts/2025-evolution-d5-ranger-4-plus.svg'

const picture = (shade: number, format: 'jpeg' | 'png') =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: { r: shade, g: 90, b: 60 } } })[format]().toBuffer()

let files: Record<string, Buffer>
let server: Server
let base: string
const requests: string[] = []

beforeAll(async () => {
  files = {
    '/front.jpg': await picture(20, 'jpeg'),
    '/side.png': await picture(200, 'png'),
    '/rear.jpg': await picture(120, 'jpeg'),
    '/notes.txt': Buffer.from('price list, not a photo'),
  }
  server = createServer((req, res) => {
    requests.push(req.url ?? '')
    const file = files[req.url ?? '']
    if (file) res.writeHead(200, { 'content-length': String(file.length) }).end(file)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe.each(backends)('photos named in an inventory import on %s', (backend) => {
  let db: TestDatabase
  let services: Services
  const inventory = () => services.staff.inventory
  const count = async (table: 'golf_carts' | 'cart_photos' | 'cart_photo_files' | 'audit_log') =>
    (await db.sql<[{ n: number }]>`select count(*)::int as n from ${db.sql(table)}`)[0].n
  const cartId = async (stockNumber: string) => (await db.sql<[{ id: number }]>`select id from golf_carts where stock_number = ${stockNumber}`)[0].id

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    await migrate(db.sql)
    services = createServices(db.sql, undefined, undefined, {
      photoPolicy: { siteUrl: 'https://carts.example', allowedHosts: [new URL(base).host], trustedAddresses: ['127.0.0.1'] },
    })
  })
  afterAll(() => db?.close())

  it('a dry run fetches and checks the photos, and stores none', async () => {
    const result = await inventory().importCsv(`${header}\nPH-1,2025 Denago EV Rover XL,Lifted.,15995,available,${image},${base}/front.jpg|${base}/side.png\n`, actor, {
      dryRun: true,
      filesAllowed: false,
    })
    expect(result).toMatchObject({ ok: true, photosNamed: 2, photosToAdd: 2 })
    expect(requests).toEqual(expect.arrayContaining(['/front.jpg', '/side.png']))
    expect([await count('golf_carts'), await count('cart_photos')]).toEqual([0, 0])
  })

  it('adds a cart with its photos fetched, processed and stored in order, and its history says so', async () => {
    const result = await inventory().importCsv(`${header}\nPH-1,2025 Denago EV Rover XL,Lifted.,15995,available,${image},${base}/front.jpg|${base}/side.png\n`, actor, {
      filesAllowed: false,
    })
    expect(result).toMatchObject({ ok: true, applied: { added: 1, photosAdded: 2 } })
    const id = await cartId('PH-1')
    const photos = await services.photos.list(id)
    expect(photos.map((p) => [p.position, p.alt, p.width, p.height])).toEqual([
      [0, '2025 Denago EV Rover XL', 800, 533],
      [1, '2025 Denago EV Rover XL, photo 2', 800, 533],
    ])
    expect(await count('cart_photo_files')).toBe(2 * 3 * 3) // a 900-pixel photo at 240, 480 and 800, in three formats
    // Stored before the transaction as photos of no cart, given their cart inside it: none left over.
    expect((await db.sql`select count(*)::int as n from cart_photos where cart_id is null`)[0]).toEqual({ n: 0 })
    // Visitors see the cover at once; the history has the cart and its photos.
    const [summary] = (await services.carts.list({})).carts
    expect(summary?.photo?.key).toBe(photos[0]!.key)
    const history = await services.staff.cartHistory(id, { limit: 10 })
    expect(history.map((e) => [e.subject, e.action, e.photos ?? null, e.actor])).toEqual([
      ['photo', 'create', 2, 'npm run inventory'],
      ['cart', 'create', null, 'npm run inventory'],
    ])
  })

  it('is a round trip: the export names the photos at this site, and importing it (or the same URLs) again changes nothing', async () => {
    const csv = await inventory().exportCsv()
    const photos = await services.photos.list(await cartId('PH-1'))
    expect(csv).toContain(`https://carts.example/photos/${photos[0]!.key}-800.jpg|https://carts.example/photos/${photos[1]!.key}-800.jpg`)
    const audits = await count('audit_log')
    const fetches = requests.length
    expect(await inventory().importCsv(csv, actor, { filesAllowed: false })).toMatchObject({
      ok: true,
      photosNamed: 2,
      photosToAdd: 0,
      applied: { added: 0, updated: 0, unchanged: 1, photosAdded: 0 },
    })
    expect(requests.length).toBe(fetches) // this site's photos are taken from storage, not over HTTP
    // The supplier's own addresses again: fetched, recognised by their content, not added twice.
    const again = await inventory().importCsv(`${header}\nPH-1,2025 Denago EV Rover XL,Lifted.,15995,available,${image},${base}/side.png|${base}/front.jpg\n`, actor, {
      filesAllowed: false,
    })
    expect(again).toMatchObject({ ok: true, photosToAdd: 0, applied: { photosAdded: 0, unchanged: 1 } })
    expect([await count('audit_log'), await count('cart_photos')]).toEqual([audits, 2])
    expect(await inventory().exportCsv()).toBe(csv)
  })

  it("copies this site's photo of another cart from storage", async () => {
    const [cover] = await services.photos.list(await cartId('PH-1'))
    const files = await count('cart_photo_files')
    const result = await inventory().importCsv(
      `${header}\nPH-2,2025 Denago EV Rover XL Demo,Demo.,14995,hold,${image},https://carts.example/photos/${cover!.key}-240.webp\n`,
      actor,
      { filesAllowed: false },
    )
    expect(result).toMatchObject({ ok: true, applied: { added: 1, photosAdded: 1 } })
    const [copy] = await services.photos.list(await cartId('PH-2'))
    expect(copy).toMatchObject({ key: cover!.key, position: 0, alt: '2025 Denago EV Rover XL Demo', widths: cover!.widths })
    expect(await count('cart_photo_files')).toBe(files + 9)
  })

  it('makes a row with a photo that cannot be taken a problem, and changes nothing', async () => {
    const before = await Promise.all([count('golf_carts'), count('cart_photos'), count('audit_log')])
    const file = [
      header,
      `PH-3,2024 Icon i40L,Four seats.,9995,available,${image},${base}/front.jpg|${base}/notes.txt`,
      `PH-1,2025 Denago EV Rover XL,Lifted.,15995,available,${image},${base}/missing.jpg`,
      `PH-4,2024 Icon i60,Six seats.,11995,available,${image},https://carts.example/photos/${'0'.repeat(32)}-480.jpg`,
    ].join('\n')
    const result = await inventory().importCsv(file, actor, { filesAllowed: false })
    expect(result).toEqual({
      ok: false,
      problems: [
        { line: 2, field: 'photos', message: `${base}/notes.txt: This file is not a photo we can read. Upload a JPEG, PNG, WebP or AVIF image.` },
        { line: 3, field: 'photos', message: `${base}/missing.jpg answered 404, not the photo` },
        { line: 4, field: 'photos', message: `https://carts.example/photos/${'0'.repeat(32)}-480.jpg is not a photo stored on this site` },
      ],
    })
    expect(await Promise.all([count('golf_carts'), count('cart_photos'), count('audit_log')])).toEqual(before)
  })

  it('serves no photo before its import places it, and leaves none behind when the write is refused', async () => {
    const file = `${header}\nPH-1,2025 Denago EV Rover XL,Lifted.,15995,available,${image},${base}/rear.jpg\n`
    const checked = await inventory().check(file, { filesAllowed: false, processPhotos: true })
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
    const [rear] = checked.photos[0]!.photos
    const importId = await stagePhotos(db.sql, checked.photos)
    expect(await services.photos.file(rear!.key, 240, 'jpeg')).toBeUndefined()
    expect(await services.photos.list(await cartId('PH-1'))).toHaveLength(2)
    await unstagePhotos(db.sql, importId)

    // Someone changes the cart between the check and the write: nothing of the import is kept.
    await db.sql`update golf_carts set price = 15500 where stock_number = 'PH-1'`
    const again = await inventory().check(file.replace('15995', '15900'), { filesAllowed: false, processPhotos: true })
    if (!again.ok) throw new Error(JSON.stringify(again.problems))
    await db.sql`update golf_carts set price = 15400 where stock_number = 'PH-1'`
    await expect(inventory().apply(again.plan, actor, again.photos)).rejects.toThrow(/changed since the file was checked/)
    expect((await db.sql`select count(*)::int as n from cart_photos where cart_id is null`)[0]).toEqual({ n: 0 })
    expect(await services.photos.list(await cartId('PH-1'))).toHaveLength(2)
  })
})

describe.each(backends)('the console import takes photos by URL on %s', (backend) => {
  let site: TestServer
  let cookie: string
  const post = (path: string, body: string) =>
    fetch(`${site.url}${path}`, { method: 'POST', headers: { cookie, origin: site.url, 'content-type': 'text/csv' }, body })
  const previewAndImport = async (file: string) => {
    const preview = (await (await post('/api/staff/inventory/check', file)).json()) as { ok: boolean; photosToAdd: number; fingerprint: string }
    const applied = await post(`/api/staff/inventory/import?fingerprint=${preview.fingerprint}`, file)
    expect(applied.status).toBe(200)
    return { preview, applied: (await applied.json()) as { added: number; updated: number; photosAdded: number } }
  }

  beforeAll(async () => {
    site = await startTestServer(backend, { IMPORT_PHOTO_HOSTS: new URL(base).host }, { trustedPhotoAddresses: ['127.0.0.1'] })
    await addStaff(site)
    cookie = (await signedInClient(site)).cookie
  })
  afterAll(() => site?.close())

  it('previews the photos to add, stores them with the cart, and imports its own export unchanged', async () => {
    const file = `${header}\nCON-9,2025 Denago EV Rover XL,Lifted.,15995,available,${image},${base}/side.png|${base}/front.jpg\n`
    const first = await previewAndImport(file)
    expect(first.preview).toMatchObject({ ok: true, photosToAdd: 2 })
    expect(first.applied).toMatchObject({ added: 1, photosAdded: 2 })
    const cart = (await (await fetch(`${site.url}/api/golf-carts/slug/2025-denago-ev-rover-xl-2`)).json()) as GolfCartDetail
    expect(cart.photos.map((p) => p.alt)).toEqual(['2025 Denago EV Rover XL', '2025 Denago EV Rover XL, photo 2'])
    expect((await fetch(`${site.url}/photos/${cart.photo!.key}-480.webp`)).status).toBe(200)

    const exported = await (await fetch(`${site.url}/api/staff/inventory.csv`, { headers: { cookie } })).text()
    const photos = await site.db.sql`select count(*)::int as n from cart_photos`
    const again = await previewAndImport(exported)
    expect(again.preview).toMatchObject({ ok: true, photosToAdd: 0 })
    expect(again.applied).toMatchObject({ added: 0, updated: 0, photosAdded: 0 })
    expect(await site.db.sql`select count(*)::int as n from cart_photos`).toEqual(photos)
  })
})
