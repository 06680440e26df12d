import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { alertRules, dayMs } from '../../domain/cart-alerts.ts'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { createServices, type Services } from '../services.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'
import { createAlertDispatch } from './alert-dispatch.ts'
import { type BuiltWatchMessage, createWatchMessages, type WatchMessageKind } from './alert-messages.ts'
import { createAlertUpkeep } from './alert-upkeep.ts'
import { errorAnswer } from '../http/errors.ts'
import { createHoldUpkeep } from '../deposits/hold-upkeep.ts'

/**
 * What watchers get (PRODUCT.md, "watching a cart or a search", "what watchers get"), from the
 * store and the procedures to the outbox rows the dispatch queues and the messages they become,
 * on a clock the test sets (`run(now)`). The sending itself, across processes and a kill -9, is
 * api/alerts/alert-processes.test.ts; the pages and the HTTP doors host/server/price-alerts.test.ts.
 */
const settings = { from: 'website@dealer.example', siteUrl: 'https://carts.example', mark: '0123456789abcdef' }
const later = (from: Date, ms: number) => new Date(from.getTime() + ms)
/** A call's refusal as every door answers it (api/http/errors.ts): status, message, issues. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected a refusal')
    },
    (error: unknown) => errorAnswer(error, { mutation: true }),
  )

describe.each(backends)('price and search alerts on %s', (backend) => {
  let db: TestDatabase
  let services: Services
  let staff: ReturnType<typeof createCaller>
  const shopper = () => createCaller(createContextInner(services, { clientAddress: '203.0.113.9' }))
  const dispatch = () => createAlertDispatch(db.sql)
  const messages = () => createWatchMessages(db.sql, services.carts, settings)

  beforeAll(async () => {
    db = await createTestDatabase(backend, 'seeded')
    services = createServices(db.sql, { notifications: ['dealer-email'] })
    const user = await services.staff.accounts.add('alerts-manager', staffPassword, { role: 'manager' })
    const { token } = await services.staff.sessions.start(user, {})
    staff = createCaller(createContextInner(services, { staffToken: token, sameOrigin: true }))
  })
  afterAll(() => db?.close())

  /** A listed cart of the seed nobody has used in this file yet. */
  let nextCart = 0
  const freshCart = async () => {
    const { carts } = await staff.staff.cart.list({ status: 'available', sort: 'oldest', limit: 50 })
    const cart = carts[nextCart++]
    if (!cart) throw new Error('the seed has run out of carts')
    return cart
  }
  const outbox = async (email: string) =>
    db.sql<{ id: number; kind: WatchMessageKind; watchId: number; details: Record<string, unknown> | null }[]>`
      select o.id, o.kind, o.watch_id, o.details from outbox_messages o join cart_watches w on w.id = o.watch_id
      where lower(w.email) = lower(${email}) order by o.id
    `
  const confirmToken = async (email: string) =>
    (await db.sql<{ confirmToken: string }[]>`select confirm_token from cart_watches where email = ${email} order by id desc limit 1`)[0]!.confirmToken
  const unsubscribeToken = async (email: string) =>
    (await db.sql<{ unsubscribeToken: string }[]>`select unsubscribe_token from cart_watches where email = ${email} order by id desc limit 1`)[0]!
      .unsubscribeToken
  /** A confirmed email watch of a cart: asked for, then its link followed. */
  const watching = async (email: string, cartId: number) => {
    await shopper().alert.watch({ email, cartId })
    await shopper().alert.confirm({ token: await confirmToken(email) })
  }
  const built = async (row: { id: number; kind: WatchMessageKind; watchId: number; details: unknown }) =>
    messages().build({ id: row.id, kind: row.kind, watchId: row.watchId, details: row.details as never })
  const email = (message: BuiltWatchMessage) => {
    if (message.channel !== 'email') throw new Error('expected an email')
    return message.message
  }

  it('sends nothing but the confirmation until its link is followed (double opt-in)', async () => {
    const cart = await freshCart()
    expect(await shopper().alert.watch({ email: 'Opt.In@Example.com', cartId: cart.id })).toMatchObject({ accepted: true })
    const [confirmation, ...rest] = await outbox('opt.in@example.com')
    expect(rest).toEqual([])
    expect(confirmation!.kind).toBe('watch-confirm')
    const message = email(await built(confirmation!))
    const token = await confirmToken('Opt.In@Example.com')
    expect(message.subject).toBe(`Confirm your price alert: ${cart.title}`)
    expect(message.text).toContain(`https://carts.example/alerts/confirm?token=${token}`)
    expect(message.to).toEqual(['Opt.In@Example.com'])

    // The price drops before the link is followed: the watcher hears nothing of it.
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 500 })
    expect(await dispatch().run()).toMatchObject({ alerts: 0 })
    expect(await outbox('opt.in@example.com')).toHaveLength(1)
    // Asking again the same day sends no second confirmation, and says nothing different.
    expect(await shopper().alert.watch({ email: 'opt.in@example.com', cartId: cart.id })).toMatchObject({ accepted: true })
    expect(await outbox('opt.in@example.com')).toHaveLength(1)
    // Reading the link (its page, a mail scanner's fetch) changes nothing: only the confirm does.
    expect(await shopper().alert.confirmation({ token })).toMatchObject({ state: 'pending', subject: { kind: 'cart', title: cart.title } })
    expect(await shopper().alert.confirmation({ token })).toMatchObject({ state: 'pending' })
    expect(await shopper().alert.confirm({ token })).toMatchObject({ state: 'confirmed' })
    // The link works once: again, it changes nothing and says the alert is on.
    expect(await shopper().alert.confirm({ token })).toMatchObject({ state: 'confirmed' })

    // Confirmed at the lowered price: the next drop is the first alert.
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 800 })
    expect(await dispatch().run()).toMatchObject({ alerts: 1 })
    const alert = (await outbox('opt.in@example.com'))[1]!
    expect(alert).toMatchObject({ kind: 'watch-alert', details: { about: 'price-drop', price: cart.price - 800, was: cart.price - 500 } })
  })

  it('alerts once for a price lowered through the console, however often the dispatch runs', async () => {
    const cart = await freshCart()
    await watching('console@example.com', cart.id)
    const saved = await staff.staff.cart.saveRow({ id: cart.id, price: cart.price - 250 })
    expect(saved.watchers).toBe(1)
    const now = new Date()
    expect(await dispatch().run(now)).toMatchObject({ changes: 1, alerts: 1 })
    expect(await dispatch().run(now)).toMatchObject({ changes: 0, alerts: 0 })
    const alerts = (await outbox('console@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(alerts).toHaveLength(1)
    const message = email(await built(alerts[0]!))
    expect(message.subject).toBe(`Price drop: ${cart.title}, now ${formatted(cart.price - 250)}`)
    expect(message.text).toContain(`down from ${formatted(cart.price)}`)
    expect(message.text).toContain(`https://carts.example/vehicle/${cart.slug}`)
    // One-click unsubscribe (RFC 8058) and the same address as a plain link in the body.
    const stop = `https://carts.example/alerts/unsubscribe?token=${await unsubscribeToken('console@example.com')}`
    expect(message.headers).toEqual({ 'List-Unsubscribe': `<${stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' })
    expect(message.text).toContain(stop)
    expect(message.html).toContain(stop)
    // A price raised is not news.
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price + 1000 })
    expect(await dispatch().run(later(now, 2 * dayMs))).toMatchObject({ alerts: 0 })
  })

  it('alerts once for a hold a bulk change ended, and not for the hold itself', async () => {
    const cart = await freshCart()
    await staff.staff.cart.saveMany({ ids: [cart.id], status: 'hold' })
    await watching('bulk@example.com', cart.id)
    const now = new Date()
    expect(await dispatch().run(now)).toMatchObject({ alerts: 0 })
    await staff.staff.cart.saveMany({ ids: [cart.id], status: 'available' })
    expect(await dispatch().run(now)).toMatchObject({ alerts: 1 })
    expect(await dispatch().run(now)).toMatchObject({ alerts: 0 })
    const [alert] = (await outbox('bulk@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(alert!.details).toMatchObject({ about: 'available', cartId: cart.id })
    expect(email(await built(alert!)).subject).toBe(`Available again: ${cart.title}`)
  })

  it('tells a watcher who watched it available that a hold it went on has ended', async () => {
    const cart = await freshCart()
    await watching('held@example.com', cart.id)
    await staff.staff.cart.setStatus({ id: cart.id, status: 'hold' })
    expect(await dispatch().run()).toMatchObject({ alerts: 0 })
    await staff.staff.cart.setStatus({ id: cart.id, status: 'available' })
    expect(await dispatch().run()).toMatchObject({ alerts: 1 })
    const [alert] = (await outbox('held@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(alert!.details).toMatchObject({ about: 'available', cartId: cart.id })
  })

  it('alerts once for a deposit’s hold that ran out by itself', async () => {
    const cart = await freshCart()
    const now = new Date()
    await db.sql`update golf_carts set status = 'hold', hold_until = ${later(now, 60_000)} where id = ${cart.id}`
    await db.sql`
      insert into deposits (kind, golf_cart_id, amount_cents, first_name, last_name, email, status, hold_until)
      values ('cart', ${cart.id}, 50000, 'Held', 'Cart', 'held-cart@example.com', 'held', ${later(now, 60_000)})
    `
    await watching('hold-ran-out@example.com', cart.id)
    expect(await createHoldUpkeep(db.sql).run(later(now, 120_000))).toMatchObject({ ended: [expect.any(Number)] })
    expect(await dispatch().run(later(now, 120_000))).toMatchObject({ alerts: 1 })
    const alerts = (await outbox('hold-ran-out@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(alerts.map((row) => row.details)).toEqual([expect.objectContaining({ about: 'available', cartId: cart.id })])
  })

  it('alerts once for a price an import lowered', async () => {
    const cart = await freshCart()
    await watching('import@example.com', cart.id)
    const record = await staff.staff.cart.get({ id: cart.id })
    const csv = `stockNumber,title,description,price,status\n${record.stockNumber},${record.title},"${record.description}",${cart.price - 1000},available\n`
    expect(await services.staff.inventory.importCsv(csv, { id: null, name: 'import' }, { filesAllowed: true })).toMatchObject({ ok: true })
    expect(await dispatch().run()).toMatchObject({ alerts: 1 })
    expect(await dispatch().run()).toMatchObject({ alerts: 0 })
    const alerts = (await outbox('import@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(alerts.map((row) => row.details)).toEqual([expect.objectContaining({ about: 'price-drop', price: cart.price - 1000 })])
  })

  it('tells one address about one cart at most once a day, and then what is true by then', async () => {
    const cart = await freshCart()
    await watching('daily@example.com', cart.id)
    const now = new Date()
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 100 })
    expect(await dispatch().run(now)).toMatchObject({ alerts: 1 })
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 300 })
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 400 })
    expect(await dispatch().run(later(now, 60_000))).toMatchObject({ alerts: 0 })
    expect(await dispatch().run(later(now, dayMs - 60_000))).toMatchObject({ alerts: 0 })
    expect(await dispatch().run(later(now, dayMs + 1000))).toMatchObject({ alerts: 1 })
    const alerts = (await outbox('daily@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(alerts.map((row) => row.details)).toEqual([
      expect.objectContaining({ price: cart.price - 100, was: cart.price }),
      expect.objectContaining({ price: cart.price - 400, was: cart.price - 100 }),
    ])
    // Unsubscribing and asking again does not start the day afresh.
    await shopper().alert.unsubscribe({ token: await unsubscribeToken('daily@example.com') })
    await watching('daily@example.com', cart.id)
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 500 })
    expect(await dispatch().run(later(now, dayMs + 2000))).toMatchObject({ alerts: 0 })
  })

  it('ends a sold cart’s watches with a last email pointing to similar carts', async () => {
    const cart = await freshCart()
    await watching('sold@example.com', cart.id)
    await staff.staff.cart.setStatus({ id: cart.id, status: 'sold' })
    expect(await dispatch().run()).toMatchObject({ alerts: 1 })
    const [alert] = (await outbox('sold@example.com')).filter((row) => row.kind === 'watch-alert')
    const message = email(await built(alert!))
    expect(message.subject).toBe(`Sold: ${cart.title}`)
    const similar = await shopper().cart.similar({ slug: cart.slug, limit: 3 })
    expect(similar).toHaveLength(3)
    for (const other of similar) expect(message.text).toContain(`https://carts.example/vehicle/${other.slug}`)
    expect((await staff.staff.cart.get({ id: cart.id })).watchers).toBe(0)
    // Nothing more about it, and the address goes once the last email is sent.
    await staff.staff.cart.setStatus({ id: cart.id, status: 'available' })
    await staff.staff.cart.setPrice({ id: cart.id, price: 1 })
    await dispatch().run(later(new Date(), 2 * dayMs))
    expect((await outbox('sold@example.com')).filter((row) => row.kind === 'watch-alert')).toHaveLength(1)
    await createAlertUpkeep(db.sql).purge()
    expect(await db.sql`select 1 from cart_watches where email = 'sold@example.com'`).toHaveLength(1)
    await db.sql`update outbox_messages set sent_at = now() where watch_id = ${alert!.watchId}`
    await createAlertUpkeep(db.sql).purge()
    expect(await db.sql`select 1 from cart_watches where email = 'sold@example.com'`).toHaveLength(0)
  })

  it('sends a search one digest for three new matching carts, and the next match a day later', async () => {
    await shopper().alert.watch({ email: 'search@example.com', query: { make: 'denago', seats: '6', sort: 'price-asc' } as never })
    const [confirmation] = await outbox('search@example.com')
    expect(email(await built(confirmation!)).text).toContain('Denago, at least 6 seats')
    await shopper().alert.confirm({ token: await confirmToken('search@example.com') })
    const add = (title: string, price: number, status: 'available' | 'draft' = 'available', seats = 6) =>
      staff.staff.cart.save({ title, description: 'A cart for the search.', price, condition: 'new', status, location: 'bayville', seats } as never)
    const now = new Date()
    const first = await add('2026 Denago EV Rover XL6 Alert One', 15_995)
    const second = await add('2026 Denago EV Rover XL6 Alert Two', 16_495)
    // Another make, and a cart of fewer seats: not like these.
    await add('2026 Evolution D5 Ranger 6 Plus Alert', 14_995)
    await add('2026 Denago EV City Alert', 9_995, 'available', 4)
    const draft = await add('2026 Denago EV Rover XL6 Alert Three', 16_995, 'draft')
    expect(await dispatch().run(now)).toMatchObject({ digests: 0 })
    // A draft is new when it is published.
    await staff.staff.cart.saveRow({ id: draft.id, status: 'available' })
    expect(await dispatch().run(later(now, 5_000))).toMatchObject({ digests: 0 })
    expect(await dispatch().run(later(now, alertRules.gatherSeconds * 1000 + 5_000))).toMatchObject({ digests: 1 })
    const [digest, ...more] = (await outbox('search@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(more).toEqual([])
    expect(digest!.details).toEqual({ about: 'digest', cartIds: [first.id, second.id, draft.id] })
    const message = email(await built(digest!))
    expect(message.subject).toBe('3 new golf carts like the ones you asked about')
    for (const cart of [first, second, draft]) expect(message.text).toContain(`https://carts.example/vehicle/${cart.slug}`)
    expect(message.text).toContain('https://carts.example/inventory?make=denago&seats=6')
    expect(message.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')

    const fourth = await add('2026 Denago EV Rover XL6 Alert Four', 17_495)
    expect(await dispatch().run(later(now, 60 * 60_000))).toMatchObject({ digests: 0 })
    expect(await dispatch().run(later(now, dayMs + 60_000))).toMatchObject({ digests: 1 })
    const digests = (await outbox('search@example.com')).filter((row) => row.kind === 'watch-alert')
    expect(digests.map((row) => row.details)).toEqual([digest!.details, { about: 'digest', cartIds: [fourth.id] }])
  })

  it('ends a watch and deletes its address with one click, whatever it still had queued', async () => {
    const cart = await freshCart()
    await watching('stop@example.com', cart.id)
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 50 })
    await dispatch().run()
    expect(await outbox('stop@example.com')).toHaveLength(2)
    const token = await unsubscribeToken('stop@example.com')
    expect(await shopper().alert.subscription({ token })).toMatchObject({ state: 'confirmed', subject: { title: cart.title } })
    expect(await shopper().alert.unsubscribe({ token })).toMatchObject({ state: 'ended', subject: { title: cart.title } })
    expect(await db.sql`select 1 from cart_watches where email = 'stop@example.com'`).toHaveLength(0)
    expect(await outbox('stop@example.com')).toEqual([])
    expect(await shopper().alert.unsubscribe({ token })).toEqual({ state: 'unknown' })
  })

  it('watches in a browser by Web Push, confirmed at once, and stops there too', async () => {
    const cart = await freshCart()
    const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } }
    // Only a browser's push service: never an address of the asker's choosing.
    const elsewhere = { ...subscription, endpoint: 'https://0x7f.1/push' }
    expect(await refusal(shopper().alert.watchInBrowser({ subscription: elsewhere, cartId: cart.id }))).toMatchObject({
      status: 400,
      body: { issues: [{ path: 'subscription.endpoint', message: expect.stringContaining('push service') }] },
    })
    await shopper().alert.watchInBrowser({ subscription, cartId: cart.id })
    await shopper().alert.watchInBrowser({ subscription, cartId: cart.id })
    expect((await staff.staff.cart.get({ id: cart.id })).watchers).toBe(1)
    await staff.staff.cart.setPrice({ id: cart.id, price: cart.price - 75 })
    await dispatch().run()
    const [row] = await db.sql<{ id: number; kind: WatchMessageKind; watchId: number; details: unknown }[]>`
      select o.id, o.kind, o.watch_id, o.details from outbox_messages o join cart_watches w on w.id = o.watch_id where w.push_endpoint = ${subscription.endpoint}
    `
    expect(row?.kind).toBe('watch-push')
    const push = await built(row!)
    if (push.channel !== 'push') throw new Error('expected a push')
    expect(push.target.endpoint).toBe(subscription.endpoint)
    expect(JSON.parse(push.payload)).toMatchObject({ title: `Price drop: ${cart.title}`, url: `/vehicle/${cart.slug}` })
    await shopper().alert.stopInBrowser({ endpoint: subscription.endpoint, cartId: cart.id })
    expect((await staff.staff.cart.get({ id: cart.id })).watchers).toBe(0)
  })

  it('refuses a cart that is not for sale, a bad address, and both subjects at once, each beside its field', async () => {
    const sold = await freshCart()
    await staff.staff.cart.setStatus({ id: sold.id, status: 'sold' })
    expect(await refusal(shopper().alert.watch({ email: 'a@example.com', cartId: sold.id }))).toMatchObject({
      status: 400,
      body: { issues: [{ path: 'cartId', message: expect.stringContaining('no longer for sale') }] },
    })
    expect(await refusal(shopper().alert.watch({ email: 'not an address', cartId: 1 }))).toMatchObject({
      status: 400,
      body: { issues: [{ path: 'email', message: 'Enter a valid email address, like name@example.com' }] },
    })
    expect(await refusal(shopper().alert.watch({ email: 'a@example.com', cartId: 1, query: {} }))).toMatchObject({
      status: 400,
      body: { issues: [{ message: 'Give either cartId (a cart to watch) or query (a search to watch), not both' }] },
    })
    expect(await refusal(shopper().alert.watch({ email: 'a@example.com', query: { seats: 'many' } }))).toMatchObject({
      status: 400,
      body: { issues: [{ path: 'query.seats', message: expect.stringContaining('seats') }] },
    })
  })

  it('sends one address at most five confirmations a day, however many carts it is given', async () => {
    for (let i = 0; i < 7; i++) await shopper().alert.watch({ email: 'flood@example.com', cartId: (await freshCart()).id })
    expect((await outbox('flood@example.com')).filter((row) => row.kind === 'watch-confirm')).toHaveLength(alertRules.confirmationsPerDay)
  })

  it('deletes addresses no longer of use: an unconfirmed watch after a week, any other a year after its last alert', async () => {
    const [a, b] = [await freshCart(), await freshCart()]
    await shopper().alert.watch({ email: 'stale@example.com', cartId: a.id })
    await watching('quiet@example.com', b.id)
    const upkeep = createAlertUpkeep(db.sql)
    await upkeep.purge(later(new Date(), 6 * dayMs))
    expect(await db.sql`select email from cart_watches where email in ('stale@example.com', 'quiet@example.com') order by email`).toHaveLength(2)
    await upkeep.purge(later(new Date(), alertRules.confirmWithinDays * dayMs + 60_000))
    expect(await db.sql`select email from cart_watches where email in ('stale@example.com', 'quiet@example.com')`).toEqual([{ email: 'quiet@example.com' }])
    await upkeep.purge(later(new Date(), alertRules.keepDays * dayMs + 60_000))
    expect(await db.sql`select email from cart_watches where email = 'quiet@example.com'`).toEqual([])
  })
})

const formatted = (price: number) => `$${price.toLocaleString('en-US')}`
