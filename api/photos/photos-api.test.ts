import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { photoLimits, photoPath, type StaffPhoto } from '../../domain/photos.ts'
import { type ServerProcess, startServerProcess } from '../../tests/support/server-process.ts'
import { addStaff, signedInClient, type staffClient } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { staffMessages } from '../trpc/staff-procedure.ts'
import { photoStoreMessages } from './photo-store.ts'
import { photoMessages } from './processing.ts'

const partner = 'https://partner.example'
const slug = '2025-evolution-d6-max-gt4'

/** A camera-like JPEG with a GPS block; `shade` makes each one a different photo. */
async function photo(shade: number, width = 1300, height = 975): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: shade, g: 120, b: 90 } } })
    .withExif({ IFD0: { Make: 'TestPhone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 12/1 30/1' } })
    .jpeg({ quality: 90 })
    .toBuffer()
}

describe.each(backends)('cart photos on %s', (backend) => {
  let server: TestServer
  let cookie: string
  let client: ReturnType<typeof staffClient>
  let cartId: number

  beforeAll(async () => {
    server = await startTestServer(backend, { ALLOWED_ORIGINS: partner })
    await addStaff(server)
    ;({ client, cookie } = await signedInClient(server))
    const { carts } = await client.staff.cart.list.query({ q: 'D6 Max GT4' })
    cartId = carts.find((c) => c.slug === slug)!.id
  })
  afterAll(() => server?.close())

  const upload = (body: Buffer | string, headers: Record<string, string> = {}, id = cartId, query = '') =>
    fetch(`${server.url}/api/staff/carts/${id}/photos${query}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', cookie, origin: server.url, ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    })
  const uploaded = async (body: Buffer, query = '') => {
    const res = await upload(body, {}, cartId, query)
    expect(res.status, await res.clone().text()).toBe(201)
    return (await res.json()) as StaffPhoto & { processingMs: number }
  }
  const publicCart = async () => (await (await fetch(`${server.url}/api/golf-carts/slug/${slug}`)).json()) as GolfCartDetail
  const fileRows = async (photoId?: number) =>
    (
      await server.db.sql<{ n: number }[]>`
        select count(*)::int as n from cart_photo_files ${photoId === undefined ? server.db.sql`` : server.db.sql`where photo_id = ${photoId}`}
      `
    )[0]!.n

  it('refuses an upload without a session, from another origin, or to a cart that does not exist, before reading it', async () => {
    const body = await photo(10)
    for (const headers of [{ cookie: '' }, { cookie: 'gc_staff=forged-token-that-is-not-a-session' }]) {
      const res = await upload(body, headers)
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ message: staffMessages.signIn, issues: [] })
    }
    for (const headers of [{ origin: partner }, { origin: 'null' }, { origin: '', 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const res = await upload(body, headers)
      expect(res.status, JSON.stringify(headers)).toBe(403)
      expect(await res.json()).toEqual({ message: staffMessages.foreignOrigin, issues: [] })
    }
    expect((await upload(body, {}, 999_999)).status).toBe(404)
    expect(await fileRows()).toBe(0)
    const wrongMethod = await fetch(`${server.url}/api/staff/carts/${cartId}/photos`, { headers: { cookie } })
    expect(wrongMethod.status).toBe(405)
  })

  it('refuses what is not a photo, a decompression bomb and an oversized file with a sentence each', async () => {
    const text = await upload('stock,price\nGC-1,100\n', { 'content-type': 'text/csv' })
    expect(text.status).toBe(415)
    expect(await text.json()).toEqual({ message: photoMessages.notImage, issues: [] })
    const big = await upload(Buffer.alloc(photoLimits.uploadBytes + 10, 1))
    expect(big.status).toBe(413)
    expect(await big.json()).toEqual({ message: photoMessages.tooLarge, issues: [] })
    // 60,000 × 60,000 declared by a JPEG of a few kB (its header edited): refused from the header.
    const small = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#000' } }).jpeg().toBuffer()
    const sof = small.indexOf(Buffer.from([0xff, 0xc0]))
    const bomb = Buffer.from(small)
    bomb.writeUInt16BE(60_000, sof + 5)
    bomb.writeUInt16BE(60_000, sof + 7)
    const refused = await upload(bomb)
    expect(refused.status).toBe(413)
    expect(((await refused.json()) as { message: string }).message).toBe(photoMessages.tooManyPixels(60_000, 60_000))
    expect(await fileRows()).toBe(0)
    // The server is still there.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })

  let photos: StaffPhoto[] = []

  it('uploads photos: stored at every width in three formats, alt text from the title and place, served at immutable addresses', async () => {
    const first = await uploaded(await photo(10))
    expect(first).toMatchObject({ cartId, position: 0, alt: '2025 Evolution D6 Max GT4', width: 1200, height: 900, widths: [240, 480, 800, 1200] })
    const second = await uploaded(await photo(60))
    const third = await uploaded(await photo(110), `?alt=${encodeURIComponent('Rear seat folded into a cargo bed')}`)
    expect(second.alt).toBe('2025 Evolution D6 Max GT4, photo 2')
    expect(third).toMatchObject({ position: 2, alt: 'Rear seat folded into a cargo bed' })
    expect(await fileRows(first.id)).toBe(12)

    const again = await upload(await photo(60))
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ message: photoStoreMessages.duplicate(1), issues: [] })

    photos = await client.staff.photo.list.query({ cartId })
    expect(photos.map((p) => p.id)).toEqual([first.id, second.id, third.id])

    const file = await fetch(`${server.url}${photoPath(first.key, 800, 'avif')}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/avif')
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const bytes = Buffer.from(await file.arrayBuffer())
    const meta = await sharp(bytes).metadata()
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['heif', 800, 600, undefined])
    const jpeg = await fetch(`${server.url}${photoPath(first.key, 1200, 'jpeg')}`)
    expect(Buffer.from(await jpeg.arrayBuffer()).includes(Buffer.from('TestPhone'))).toBe(false)
    const revalidated = await fetch(`${server.url}${photoPath(first.key, 800, 'avif')}`, { headers: { 'if-none-match': file.headers.get('etag')! } })
    expect(revalidated.status).toBe(304)
    expect((await fetch(`${server.url}${photoPath(first.key, 1600, 'avif')}`)).status).toBe(404)
    expect((await fetch(`${server.url}/photos/not-a-photo.png`)).status).toBe(404)

    // Visitors see them at once: the cover on the card, every photo on the page.
    const cart = await publicCart()
    expect(cart.photos.map((p) => p.key)).toEqual([first.key, second.key, third.key])
    expect(cart.photo?.key).toBe(first.key)
    const list = (await (await fetch(`${server.url}/api/golf-carts`)).json()) as GolfCartDetail[]
    expect(list.find((c) => c.slug === slug)?.photo).toEqual({ key: first.key, alt: first.alt, width: 1200, height: 900, widths: [240, 480, 800, 1200] })
    expect(list.filter((c) => c.photo !== null)).toHaveLength(1)
  })

  it('reorders, chooses the cover, edits alt text and removes, each in the audit log', async () => {
    const [a, b, c] = photos.map((p) => p.id) as [number, number, number]
    const title = '2025 Evolution D6 Max GT4'
    expect((await client.staff.photo.reorder.mutate({ cartId, ids: [c, a, b] })).map((p) => [p.id, p.position, p.alt])).toEqual([
      // Alt text staff wrote stays; the one each photo started with follows its place.
      [c, 0, 'Rear seat folded into a cargo bed'],
      [a, 1, `${title}, photo 2`],
      [b, 2, `${title}, photo 3`],
    ])
    await expect(client.staff.photo.reorder.mutate({ cartId, ids: [a, b] })).rejects.toThrow(photoStoreMessages.order)
    await expect(client.staff.photo.reorder.mutate({ cartId, ids: [a, a, b] })).rejects.toThrow(photoStoreMessages.order)
    expect((await client.staff.photo.setCover.mutate({ id: b })).map((p) => [p.id, p.alt])).toEqual([
      // The new cover is described by the title, not as "photo 3".
      [b, title],
      [c, 'Rear seat folded into a cargo bed'],
      [a, `${title}, photo 3`],
    ])
    expect((await publicCart()).photo).toMatchObject({ key: photos[1]!.key, alt: title })

    const renamed = await client.staff.photo.setAlt.mutate({ id: a, alt: '  Dash with the touch screen  ' })
    expect(renamed.alt).toBe('Dash with the touch screen')
    await expect(client.staff.photo.setAlt.mutate({ id: a, alt: '   ' })).rejects.toThrow('Alt text is required')

    const before = await fileRows()
    const left = await client.staff.photo.remove.mutate({ id: c })
    expect(left.map((p) => [p.id, p.position, p.alt])).toEqual([
      [b, 0, title],
      [a, 1, 'Dash with the touch screen'],
    ])
    expect(await fileRows()).toBe(before - 12)
    expect((await fetch(`${server.url}${photoPath(photos[2]!.key, 480, 'webp')}`)).status).toBe(404)
    await expect(client.staff.photo.remove.mutate({ id: c })).rejects.toThrow(`No photo has the id ${c}`)

    const audit = await server.db.sql<{ entityId: string; action: string; field: string | null; actor: string }[]>`
      select entity_id, action, field, actor from audit_log where entity = 'photo' order by id
    `
    expect(audit.every((row) => row.actor === 'maria')).toBe(true)
    expect(audit.filter((r) => r.action === 'create')).toHaveLength(3)
    expect(audit).toContainEqual({ entityId: String(a), action: 'update', field: 'alt', actor: 'maria' })
    expect(audit).toContainEqual({ entityId: String(c), action: 'delete', field: null, actor: 'maria' })
    expect(audit.filter((r) => r.field === 'position').length).toBeGreaterThanOrEqual(4)
  })

  it("shows the photo changes in the cart's history, one line per change, with who and when", async () => {
    const [b, a] = (await client.staff.photo.list.query({ cartId })).map((p) => p.id) as [number, number]
    const d = await uploaded(await photo(160))
    // The cover stays: a reorder, not a new cover.
    await client.staff.photo.reorder.mutate({ cartId, ids: [b, d.id, a] })
    const history = await client.staff.audit.forCart.query({ id: cartId })
    const photoLines = history.filter((e) => e.subject === 'photo')
    expect(photoLines.map((e) => [e.action, e.field, e.photos ?? null])).toEqual([
      ['update', 'order', null],
      ['create', null, 1],
      ['delete', null, 1], // the photos after it moved up: part of the removal, not lines of their own
      ['update', 'alt', null],
      ['update', 'cover', null], // setCover
      ['update', 'cover', null], // the reorder that put the third photo first
      ['create', null, 1],
      ['create', null, 1],
      ['create', null, 1],
    ])
    expect(photoLines.find((e) => e.field === 'alt')).toMatchObject({ before: '2025 Evolution D6 Max GT4, photo 3', after: 'Dash with the touch screen' })
    expect(photoLines.every((e) => e.actor === 'maria' && !Number.isNaN(Date.parse(e.at)))).toBe(true)
    // Newest first, with the cart's own changes among them.
    expect(history.map((e) => e.id)).toEqual([...history.map((e) => e.id)].sort((x, y) => y - x))
    await client.staff.cart.setPrice.mutate({ id: cartId, price: 15_995 })
    const [latest] = await client.staff.audit.forCart.query({ id: cartId, limit: 5 })
    expect(latest).toMatchObject({ subject: 'cart', field: 'price', after: 15_995 })
  })

  it('keeps photos picked together in the order picked, whichever arrives first (?place)', async () => {
    const { id } = await client.staff.cart.save.mutate({
      title: '2024 Evolution Forester 4 Order Test',
      description: 'Photos sent at once.',
      price: 9995,
      condition: 'used',
      status: 'draft',
      location: 'waretown',
    })
    const sendAt = async (shade: number, place: number) => {
      const res = await upload(await photo(shade, 400, 300), {}, id, `?place=${place}`)
      expect(res.status, await res.clone().text()).toBe(201)
      return (await res.json()) as StaffPhoto
    }
    // Five picked at once; the fourth finishes first, then the second, the first, the fifth, the third.
    const arrived = new Map<number, StaffPhoto>()
    for (const place of [3, 1, 0, 4, 2]) arrived.set(place, await sendAt(40 + place * 30, place))
    const picked = [0, 1, 2, 3, 4].map((place) => arrived.get(place)!.id)
    const listed = await client.staff.photo.list.query({ cartId: id })
    expect(listed.map((p) => p.id)).toEqual(picked)
    // Alt text names the place picked, not the place of arrival: the cover has the title alone.
    expect(listed.map((p) => p.alt)).toEqual([
      '2024 Evolution Forester 4 Order Test',
      ...[2, 3, 4, 5].map((n) => `2024 Evolution Forester 4 Order Test, photo ${n}`),
    ])
    // Visitors' cover (the draft's own staff view here) is the first picked from the moment it lands.
    const [cover] = await server.db.sql<{ id: number }[]>`select id::int as id from cart_photos where cart_id = ${id} order by position, id limit 1`
    expect(cover?.id).toBe(picked[0])

    // A place that is not one of the 24: refused before the photo is read, nothing stored.
    for (const place of ['-1', '24', '1.5', 'first']) {
      const res = await upload(await photo(250, 300, 200), {}, id, `?place=${place}`)
      expect(res.status, place).toBe(400)
      expect(await res.json()).toEqual({ message: photoMessages.place, issues: [] })
    }
    // Without a place, a photo goes last.
    const lastRes = await upload(await photo(230, 300, 200), {}, id)
    expect(lastRes.status).toBe(201)
    const last = (await lastRes.json()) as StaffPhoto
    expect(last.position).toBe(5)

    // A batch whose third photo failed leaves a gap (places 6, 7 and 9 of a batch of four, the
    // 9th arriving first): still in the order picked, and the reorder the console then sends
    // with the same order closes the gap with no line in the history.
    const batch = [await sendAt(200, 9), await sendAt(210, 6), await sendAt(220, 7)]
    const withGap = await client.staff.photo.list.query({ cartId: id })
    expect(withGap.map((p) => p.id)).toEqual([...picked, last.id, batch[1]!.id, batch[2]!.id, batch[0]!.id])
    expect(withGap.map((p) => p.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 9])
    const auditRows = async () =>
      (await server.db.sql<{ n: number }[]>`select count(*)::int as n from audit_log where entity = 'photo' and field = 'position'`)[0]!.n
    const before = await auditRows()
    const closed = await client.staff.photo.reorder.mutate({ cartId: id, ids: withGap.map((p) => p.id) })
    expect(closed.map((p) => [p.id, p.position])).toEqual(withGap.map((p, i) => [p.id, i]))
    expect(await auditRows()).toBe(before)

    // The order a drag sends: the last photo made the second, each move in the history.
    const dragged = [closed[0]!.id, closed[8]!.id, ...closed.slice(1, 8).map((p) => p.id)]
    const after = await client.staff.photo.reorder.mutate({ cartId: id, ids: dragged })
    expect(after.map((p) => p.id)).toEqual(dragged)
    expect(after.map((p) => p.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    expect(await auditRows()).toBe(before + 8)
    const history = await client.staff.audit.forCart.query({ id, limit: 1 })
    expect(history[0]).toMatchObject({ subject: 'photo', action: 'update', field: 'order' })
    // An order naming a photo of another cart, or leaving one out, changes nothing.
    const other = (await client.staff.photo.list.query({ cartId }))[0]!.id
    await expect(client.staff.photo.reorder.mutate({ cartId: id, ids: [...dragged.slice(0, 8), other] })).rejects.toThrow(photoStoreMessages.order)
    await expect(client.staff.photo.reorder.mutate({ cartId: id, ids: dragged.slice(1) })).rejects.toThrow(photoStoreMessages.order)
    expect((await client.staff.photo.list.query({ cartId: id })).map((p) => p.id)).toEqual(dragged)
    await client.staff.cart.delete.mutate({ id })
  })

  it('takes at most 24 photos on a cart', async () => {
    const { id } = await client.staff.cart.save.mutate({
      title: '2023 Evolution Classic 2 Plus Photo Test',
      description: 'Twenty-four photos.',
      price: 7995,
      imageUrl: '/images/carts/2025-evolution-classic-2-plus.svg',
      condition: 'used',
      status: 'hold',
      location: 'waretown',
    })
    const stored = await Promise.all(
      Array.from({ length: photoLimits.perCart }, async (_, i) => {
        const small = await photo(i * 9, 250, 200)
        return server.runtime.services.photos.add({ id: null, name: 'test' }, id, await import('./processing.ts').then((m) => m.processPhoto(small)))
      }),
    )
    expect(new Set(stored.map((p) => p.position)).size).toBe(photoLimits.perCart)
    const res = await upload(await photo(250, 250, 200), {}, id)
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ message: photoStoreMessages.full, issues: [] })

    // Deleting the cart frees its photos' bytes.
    const files = await fileRows()
    await client.staff.cart.delete.mutate({ id })
    expect(await fileRows()).toBe(files - photoLimits.perCart * 3)
    const [left] = await server.db.sql<{ n: number }[]>`select count(*)::int as n from cart_photos where cart_id = ${id}`
    expect(left?.n).toBe(0)
  })
})

describe.runIf(backends.includes('postgres'))('photos across processes on one PostgreSQL', () => {
  let server: TestServer
  let second: ServerProcess | undefined

  beforeAll(async () => {
    server = await startTestServer('postgres')
    await addStaff(server)
  })
  afterAll(async () => {
    await second?.stop()
    await server?.close()
  })

  it('a photo uploaded through one process is served by another', async () => {
    const { cookie, client } = await signedInClient(server)
    const { carts } = await client.staff.cart.list.query({ q: 'D6 Max GT4' })
    const res = await fetch(`${server.url}/api/staff/carts/${carts[0]!.id}/photos`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', cookie, origin: server.url },
      body: new Uint8Array(await photo(200)),
    })
    expect(res.status).toBe(201)
    const stored = (await res.json()) as StaffPhoto
    second = await startServerProcess({ DATABASE_URL: server.db.url! })
    const path = photoPath(stored.key, 480, 'webp')
    const [here, there] = await Promise.all([fetch(`${server.url}${path}`), fetch(`${second.url}${path}`)])
    expect(there.status).toBe(200)
    expect(there.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(Buffer.from(await there.arrayBuffer()).equals(Buffer.from(await here.arrayBuffer()))).toBe(true)
    const cart = (await (await fetch(`${second.url}/api/golf-carts/slug/${carts[0]!.slug}`)).json()) as GolfCartDetail
    expect(cart.photos.map((p) => p.key)).toEqual([stored.key])
  }, 90_000)
})
