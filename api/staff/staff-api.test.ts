import type { AnyProcedure } from '@trpc/server'
import { TRPCClientError } from '@trpc/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CartRecordInput } from '../../domain/cart-record.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { addStaff, signedInClient, signIn, staffClient } from '../../tests/support/staff.ts'
import { type AppRouter, appRouter } from '../trpc/router.ts'
import { staffMessages } from '../trpc/staff-procedure.ts'
import { startingInventory } from '../carts/starting-inventory.ts'

/** Every `staff.*` procedure of the router, with its kind: a new one is covered the day it is added. */
// At run time `_def.procedures` is flat ('staff.carts.list': procedure); its type is the nested router.
const staffProcedures = Object.entries<unknown>(appRouter._def.procedures)
  .filter(([path]) => path.startsWith('staff.'))
  .map(([path, procedure]) => [path, (procedure as AnyProcedure)._def.type] as const)

const partner = 'https://partner.example'

const newCart: CartRecordInput = {
  title: '2024 Evolution D5 Maverick 4 Plus',
  description: 'Trade-in, one owner, new batteries in 2025.',
  price: 8995,
  imageUrl: '/images/carts/2025-evolution-d5-maverick-4.svg',
  condition: 'used',
  status: 'available',
  location: 'pleasantville',
  year: 2024,
  vin: '1M8GDM9AXKP042788',
  stockNumber: 'U-2024-17',
  color: 'Sky Blue',
  seats: 4,
  battery: 'lithium',
  streetLegal: true,
  lifted: true,
  msrp: 10995,
}

describe.each(backends)('the staff API on %s', (backend) => {
  let server: TestServer
  let cookie: string
  let client: ReturnType<typeof staffClient>

  beforeAll(async () => {
    server = await startTestServer(backend, { ALLOWED_ORIGINS: partner })
    await addStaff(server)
    ;({ client, cookie } = await signedInClient(server))
  })
  afterAll(() => server?.close())

  const call = (path: string, type: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/trpc/${path}`, {
      method: type === 'query' ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: type === 'query' ? undefined : '{}',
    })

  describe('every staff procedure', () => {
    it('is found in the router, queries and mutations alike', () => {
      expect(staffProcedures.length).toBeGreaterThanOrEqual(10)
      expect(staffProcedures.map(([path]) => path)).toEqual(
        expect.arrayContaining([
          'staff.me', 'staff.cart.list', 'staff.cart.save', 'staff.cart.delete', 'staff.audit.forCart',
          'staff.lead.list', 'staff.lead.get', 'staff.lead.choices', 'staff.lead.setStatus', 'staff.lead.assign',
          'staff.lead.addNote', 'staff.lead.resend', 'staff.lead.dashboard',
        ]),
      )
    })

    it.each(staffProcedures)('%s refuses a request without a session with 401 JSON', async (path, type) => {
      for (const headers of [{ origin: server.url }, { origin: server.url, cookie: 'gc_staff=forged-token-that-is-not-a-session' }] as Record<string, string>[]) {
        const res = await call(path, type, headers)
        expect(res.status).toBe(401)
        expect(res.headers.get('content-type')).toMatch(/application\/json/)
        const body = (await res.json()) as { error: { message: string; data: { code: string } } }
        expect(body.error).toMatchObject({ message: staffMessages.signIn, data: { code: 'UNAUTHORIZED' } })
      }
    })

    it.each(staffProcedures.filter(([, type]) => type === 'mutation'))(
      '%s refuses a signed-in write from another origin, even a partner allowed to send leads',
      async (path, type) => {
        for (const headers of [{ origin: partner }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }] as Record<string, string>[]) {
          const res = await call(path, type, { cookie, ...headers })
          expect(res.status, JSON.stringify(headers)).toBe(403)
        }
      },
    )

    it('answers staff calls with no-store, so no browser or proxy keeps them', async () => {
      const res = await call('staff.me', 'query', { cookie })
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
    })
  })

  describe('sessions', () => {
    it('signing in sets an HttpOnly, SameSite=Strict cookie holding a random token, and keeps only its hash', async () => {
      const answer = await signIn(server)
      expect(answer.status).toBe(303)
      expect(answer.location).toBe('/staff')
      expect(answer.setCookie).toMatch(/^gc_staff=[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\//)
      expect(answer.setCookie).toMatch(/; HttpOnly/)
      expect(answer.setCookie).toMatch(/; SameSite=Strict/)
      expect(answer.setCookie).not.toMatch(/Secure/)
      const token = answer.cookie!.split('=')[1]!
      const rows = await server.db.sql`select encode(token_hash, 'hex') as hash from staff_sessions`
      expect(JSON.stringify(rows)).not.toContain(token)
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true)
    })

    it('gives a new token at every sign-in and ends the one the browser came with', async () => {
      const first = await signIn(server)
      const second = await signIn(server, 'maria', undefined, { cookie: first.cookie! })
      expect(second.cookie).not.toBe(first.cookie)
      await expect(staffClient(server, first.cookie).staff.me.query()).rejects.toMatchObject({ data: { httpStatus: 401 } })
      expect(await staffClient(server, second.cookie).staff.me.query()).toMatchObject({ username: 'maria' })
    })

    it('refuses a session idle for more than 12 hours, and one older than 24 hours however busy', async () => {
      const idle = await signIn(server)
      const old = await signIn(server)
      const hash = (cookie: string) => server.db.sql`decode(encode(sha256(convert_to(${cookie.split('=')[1]!}, 'UTF8')), 'hex'), 'hex')`
      await server.db.sql`update staff_sessions set last_seen_at = now() - interval '12 hours 1 minute' where token_hash = ${hash(idle.cookie!)}`
      await server.db.sql`update staff_sessions set created_at = now() - interval '24 hours 1 minute' where token_hash = ${hash(old.cookie!)}`
      for (const stale of [idle, old]) {
        const error = await staffClient(server, stale.cookie).staff.me.query().catch((e: unknown) => e)
        expect(error).toBeInstanceOf(TRPCClientError)
        expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ httpStatus: 401 })
      }
    })

    it('signs out: the cookie is cleared and the token no longer works', async () => {
      const session = await signIn(server)
      const res = await fetch(`${server.url}/staff/logout`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: session.cookie!, origin: server.url },
      })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/staff/login')
      expect(res.headers.get('set-cookie')).toMatch(/^gc_staff=; .*Expires=Thu, 01 Jan 1970/)
      await expect(staffClient(server, session.cookie).staff.me.query()).rejects.toMatchObject({ data: { httpStatus: 401 } })
    })

    it('signs out everywhere: every browser of the account, and no other account', async () => {
      await addStaff(server, 'devon')
      const devon = await signIn(server, 'devon')
      const phone = await signIn(server)
      const desk = await signIn(server)
      expect(await staffClient(server, desk.cookie).staff.session.signOutEverywhere.mutate()).toMatchObject({ ended: expect.any(Number) })
      for (const ended of [phone, desk]) {
        await expect(staffClient(server, ended.cookie).staff.me.query()).rejects.toMatchObject({ data: { httpStatus: 401 } })
      }
      expect(await staffClient(server, devon.cookie).staff.me.query()).toMatchObject({ username: 'devon' })
      ;({ client, cookie } = await signedInClient(server))
    })

    it('a new password ends the account\'s sessions', async () => {
      await addStaff(server, 'sam')
      const sam = await signIn(server, 'sam')
      await server.runtime.services.staff.accounts.setPassword('sam', 'another long passphrase')
      await expect(staffClient(server, sam.cookie).staff.me.query()).rejects.toMatchObject({ data: { httpStatus: 401 } })
      expect((await signIn(server, 'sam', 'another long passphrase')).status).toBe(303)
    })

    it('refuses a sign-in posted from another site', async () => {
      const answer = await signIn(server, 'maria', undefined, { origin: 'https://evil.test' })
      expect(answer.status).toBe(403)
      expect(answer.setCookie).toBeNull()
    })
  })

  describe('the pages under /staff', () => {
    const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', ...init })

    it.each([
      ['/staff', '/staff/login'],
      ['/staff/', '/staff/login'],
      // The page asked for is where sign-in leads back to (an alert's link, PRODUCT.md "alert links").
      ['/staff/carts/1', '/staff/login?next=%2Fstaff%2Fcarts%2F1'],
      ['/STAFF/carts', '/staff/login'],
      ['/staff/login/../carts', '/staff/login?next=%2Fstaff%2Fcarts'],
    ])(
      '%s without a session answers 303 to the sign-in page, never cached or indexed',
      async (path, location) => {
        const res = await get(path)
        expect(res.status).toBe(303)
        expect(res.headers.get('location')).toBe(location)
        expect(res.headers.get('cache-control')).toBe('no-store')
        expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow')
      },
    )

    it('a post under /staff without a session is sent to sign in too', async () => {
      const res = await get('/staff/carts/1', { method: 'POST', headers: { origin: server.url } })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/staff/login')
    })

    it('with a session, /staff goes on to the console, and the sign-in page sends you there', async () => {
      expect((await get('/staff', { headers: { cookie } })).status).not.toBe(303)
      const login = await get('/staff/login', { headers: { cookie } })
      expect(login.status).toBe(303)
      expect(login.headers.get('location')).toBe('/staff')
      expect((await get('/staff/login')).status).not.toBe(303)
    })
  })

  describe('carts', () => {
    it('adds a cart with every field of the record, and writes its creation to the audit log', async () => {
      const saved = await client.staff.cart.save.mutate(newCart)
      expect(saved).toMatchObject({ ...newCart, slug: '2024-evolution-d5-maverick-4-plus', version: 1, soldAt: null })
      const [entry] = await client.staff.audit.forCart.query({ id: saved.id })
      expect(entry).toMatchObject({ actor: 'maria', action: 'create', field: null, after: { stockNumber: 'U-2024-17', price: 8995 } })
    })

    it('gives a cart saved without a stock number the next GC- number', async () => {
      const saved = await client.staff.cart.save.mutate({ ...newCart, vin: null, stockNumber: null, title: 'Club Car Onward 4' })
      expect(saved.stockNumber).toBe(`GC-${String(saved.id).padStart(4, '0')}`)
    })

    it('refuses every problem in one round: bad fields beside each, with a stock number another cart has among them', async () => {
      const error = (await client.staff.cart.save
        .mutate({ ...newCart, title: '', make: null, model: null, price: -5, vin: '1M8GDM9A1KP042788', seats: 40 })
        .catch((e: unknown) => e)) as TRPCClientError<AppRouter>
      expect(error.data).toMatchObject({ httpStatus: 400 })
      expect(error.shape?.issues).toEqual([
        { path: 'price', message: 'Price cannot be negative' },
        { path: 'vin', message: 'The check digit (9th character) should be X: check the VIN for a typo' },
        { path: 'seats', message: 'Seats must be at most 12' },
        { path: 'title', message: 'Title is required: type one, or the make and model to build it from' },
        { path: 'stockNumber', message: 'Stock number U-2024-17 is already used by "2024 Evolution D5 Maverick 4 Plus"' },
      ])
      const duplicate = (await client.staff.cart.save.mutate({ ...newCart, title: 'Another' }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
      expect(duplicate.data).toMatchObject({ httpStatus: 400 })
      expect(duplicate.shape?.issues).toEqual([
        { path: 'stockNumber', message: 'Stock number U-2024-17 is already used by "2024 Evolution D5 Maverick 4 Plus"' },
        { path: 'vin', message: 'This VIN is already on "2024 Evolution D5 Maverick 4 Plus"' },
      ])
    })

    it('edits every field, records each change with before and after, and keeps the slug', async () => {
      const { carts } = await client.staff.cart.list.query({ q: 'U-2024-17' })
      const cart = await client.staff.cart.get.query({ id: carts[0]!.id })
      const edited = await client.staff.cart.save.mutate({
        ...newCart,
        id: cart.id,
        version: cart.version,
        title: '2024 Evolution D5 Maverick 4 Plus (trade-in)',
        color: 'Silver',
        lifted: false,
      })
      expect(edited).toMatchObject({ slug: cart.slug, color: 'Silver', lifted: false, version: cart.version + 1 })
      const history = await client.staff.audit.forCart.query({ id: cart.id })
      // Newest first; one save's changes in the record's field order, reversed.
      expect(history.filter((e) => e.action === 'update').map(({ field, before, after, actor }) => ({ field, before, after, actor }))).toEqual([
        { field: 'lifted', before: true, after: false, actor: 'maria' },
        { field: 'color', before: 'Sky Blue', after: 'Silver', actor: 'maria' },
        { field: 'title', before: '2024 Evolution D5 Maverick 4 Plus', after: '2024 Evolution D5 Maverick 4 Plus (trade-in)', actor: 'maria' },
      ])
    })

    it('refuses a save made on a copy someone else has changed since (409), losing nothing', async () => {
      const { carts } = await client.staff.cart.list.query({ q: 'U-2024-17' })
      const cart = await client.staff.cart.get.query({ id: carts[0]!.id })
      await client.staff.cart.setPrice.mutate({ id: cart.id, price: 8795 })
      const error = (await client.staff.cart.save.mutate({ ...newCart, id: cart.id, version: cart.version }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
      expect(error.data).toMatchObject({ httpStatus: 409 })
      expect((await client.staff.cart.get.query({ id: cart.id })).price).toBe(8795)
    })

    it('changes price, status and featured in one step each, each in the audit log', async () => {
      const { carts } = await client.staff.cart.list.query({ q: 'U-2024-17' })
      const id = carts[0]!.id
      await client.staff.cart.setPrice.mutate({ id, price: 8495 })
      await client.staff.cart.setStatus.mutate({ id, status: 'hold' })
      const featured = await client.staff.cart.setFeatured.mutate({ id, featured: true })
      expect(featured).toMatchObject({ price: 8495, status: 'hold', featured: true })
      const latest = (await client.staff.audit.forCart.query({ id, limit: 3 })).map((e) => [e.field, e.before, e.after])
      expect(latest).toEqual([
        ['featured', false, true],
        ['status', 'available', 'hold'],
        ['price', 8795, 8495],
      ])
    })

    it('saves a list row whole in one step, or refuses it whole: nothing of a refused row is saved', async () => {
      const { carts } = await client.staff.cart.list.query({ q: 'U-2024-17' })
      const { id, version } = carts[0]!
      const before = await client.staff.cart.get.query({ id })
      const refusals = [
        { change: { price: 7000, status: 'gone' }, code: 'BAD_REQUEST' },
        { change: { price: 7000, featured: false, status: 'sold' }, code: 'PRECONDITION_FAILED' },
        { change: { price: 7000, version: version - 1 }, code: 'CONFLICT' },
      ]
      for (const { change, code } of refusals) {
        const error = (await client.staff.cart.saveRow.mutate({ id, ...change } as never).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
        expect(error.data?.code).toBe(code)
        expect(await client.staff.cart.get.query({ id })).toMatchObject({ price: before.price, status: before.status, featured: before.featured, version: before.version })
      }
      const saved = await client.staff.cart.saveRow.mutate({ id, version, price: 7250, status: 'sold', featured: false, confirmSale: true })
      expect(saved).toMatchObject({ price: 7250, status: 'sold', featured: false, version: before.version + 1 })
      const latest = (await client.staff.audit.forCart.query({ id, limit: 3 })).map((e) => e.field).sort()
      expect(latest).toEqual(['featured', 'price', 'status'])
      await client.staff.cart.saveRow.mutate({ id, price: before.price, status: before.status, featured: before.featured })
    })

    it('searches, filters by status, sorts and pages', async () => {
      const page = await client.staff.cart.list.query({ limit: 5, offset: 5, sort: 'price-asc' })
      expect(page.carts).toHaveLength(5)
      expect(page.total).toBeGreaterThan(25)
      const prices = page.carts.map((c) => c.price)
      expect(prices).toEqual([...prices].sort((a, b) => a - b))
      const rovers = startingInventory().map((r) => r.record.title).filter((t) => /rover xl6/i.test(t))
      expect((await client.staff.cart.list.query({ q: 'rover xl6', sort: 'title' })).carts.map((c) => c.title)).toEqual(rovers.sort())
      expect((await client.staff.cart.list.query({ q: '100%_' })).total).toBe(0)
      const held = await client.staff.cart.list.query({ status: 'hold' })
      expect(held.carts.map((c) => c.stockNumber)).toEqual(['U-2024-17'])
    })

    it('deletes a cart: it leaves everything, and its history stays with the whole record', async () => {
      const added = await client.staff.cart.save.mutate({ ...newCart, title: 'Delete Me Cart', vin: null, stockNumber: 'DEL-1' })
      expect(await client.staff.cart.delete.mutate({ id: added.id })).toEqual({ id: added.id, deleted: true })
      const error = (await client.staff.cart.get.query({ id: added.id }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
      expect(error.data).toMatchObject({ httpStatus: 404 })
      expect(error.message).toBe(`No golf cart has the id ${added.id}`)
      expect((await fetch(`${server.url}/api/golf-carts/slug/delete-me-cart`)).status).toBe(404)
      const [deleted] = await client.staff.audit.forCart.query({ id: added.id })
      expect(deleted).toMatchObject({ action: 'delete', actor: 'maria', before: { title: 'Delete Me Cart', stockNumber: 'DEL-1' } })
    })
  })
})
