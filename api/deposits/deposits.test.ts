import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { holdButtonLabel, onHoldUntil } from '../../domain/deposits.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { staffPassword } from '../../tests/support/staff.ts'
import { startStripeStandIn, type StripeStandIn } from '../../tests/support/stripe-stand-in.ts'
import { backends } from '../../tests/support/test-database.ts'
import { freePort, startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'
import { ownerNoticeMs } from './hold-upkeep.ts'

/**
 * Deposits (issue #52; PRODUCT.md "deposits", "holding a cart", "after the hold") through a local
 * Stripe (tests/support/stripe-stand-in.ts) and a local mail server. HTTP where the status codes
 * and the raw body are the behaviour (POST /api/deposits, the webhook); the console's procedures
 * through `createCaller`; the hold's end through the upkeep with the time given.
 */

interface Cart {
  id: number
  slug: string
  title: string
  price: number
}

const shopper = (firstName: string, email: string) => ({ firstName, lastName: 'Buyer', email, phone: '(609) 555-0142' })

describe.each(backends)('deposits on %s', (backend) => {
  let stripe: StripeStandIn
  let smtp: SmtpSink
  let server: TestServer
  let siteUrl: string
  let carts: Cart[]
  let manager: ReturnType<typeof createCaller>
  let sales: ReturnType<typeof createCaller>
  let mariaId: number

  beforeAll(async () => {
    ;[stripe, smtp] = await Promise.all([startStripeStandIn(), startSmtpSink()])
    const port = await freePort()
    siteUrl = `http://127.0.0.1:${port}`
    server = await startTestServer(
      backend,
      {
        ...stripe.env,
        SITE_URL: siteUrl,
        SMTP_URL: smtp.url,
        LEADS_TO: 'leads@dealer.example',
        LEADS_FROM: 'website@dealer.example',
        ALLOWED_ORIGINS: 'https://partner.example',
        OUTBOX_POLL_MS: '100',
        OUTBOX_RETRY_BASE_MS: '100',
        LOG_LEVEL: 'silent',
      },
      { port, site: true },
    )
    const { accounts, sessions, settings } = server.runtime.services.staff
    const callerOf = async (username: string, role: 'sales' | 'manager') => {
      const user = await accounts.add(username, staffPassword, { role, email: `${username}@dealer.example` })
      const { token } = await sessions.start(user, {})
      return { user, caller: createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true })) }
    }
    const maria = await callerOf('maria', 'sales')
    mariaId = maria.user.id
    sales = maria.caller
    manager = (await callerOf('mike', 'manager')).caller
    const everyone = [maria.user.id]
    await settings.save({ id: null, name: 'test' }, { leadRouting: { denago: everyone, evolution: everyone, 'swift-ev': everyone, other: everyone } })
    carts = await server.db.sql<Cart[]>`select id, slug, title, price::float8 as price from golf_carts where status = 'available' order by price desc, id limit 8`
    // The site's renderer loads with the server: on a machine shared with other test files that can pass a minute.
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await Promise.all([stripe?.stop(), smtp?.stop()])
  })

  const startDeposit = async (cart: Cart, who: { firstName: string; email: string }, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/api/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ cartId: cart.id, ...shopper(who.firstName, who.email), textConsent: true }),
    })
    return { status: response.status, body: (await response.json()) as { url?: string; message?: string } }
  }
  const sessionOf = (url: string) => [...stripe.sessions.values()].find((s) => s.url === url)!
  const pay = (sessionId: string) => {
    const event = stripe.completedEvent(sessionId)
    return { event, response: stripe.deliver(`${server.url}/webhooks/stripe`, event.body) }
  }
  const cartNow = async (slug: string) => (await (await fetch(`${server.url}/api/golf-carts/slug/${slug}`)).json()) as { status: string; holdUntil: string | null }
  const depositRows = (cartId: number) =>
    server.db.sql<{ id: number; status: string; inquiryId: number | null; holdUntil: Date | null; refundReason: string | null }[]>`
      select id, status, inquiry_id, hold_until, refund_reason from deposits where golf_cart_id = ${cartId} and status <> 'open' order by id
    `
  const mailTo = (address: string, subject: RegExp) => smtp.messages.filter((m) => m.to?.some((t) => t.address === address) && subject.test(m.subject ?? ''))

  it('makes a Checkout Session for an available cart: the deposit, in dollars, back to the cart’s page, the cart in its metadata', async () => {
    const cart = carts[0]!
    const { status, body } = await startDeposit(cart, { firstName: 'Ann', email: 'ann@example.com' })
    expect(status).toBe(201)
    const request = stripe.requests.at(-1)!
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' })
    expect(request.idempotencyKey).toMatch(/^deposit-\d+-checkout$/)
    expect(request.body).toMatchObject({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '50000', product_data: { name: `Deposit to hold the ${cart.title}` } } }],
      customer_email: 'ann@example.com',
      success_url: `${siteUrl}/vehicle/${cart.slug}?deposit=paid`,
      cancel_url: `${siteUrl}/vehicle/${cart.slug}?deposit=cancelled`,
      metadata: { kind: 'cart', cartId: String(cart.id), cartSlug: cart.slug, depositId: expect.stringMatching(/^\d+$/) },
      payment_intent_data: { metadata: { cartId: String(cart.id) } },
    })
    expect(body).toEqual({ url: sessionOf(body.url!).url })
    expect(sessionOf(body.url!)).toMatchObject({ amount_total: 50_000, currency: 'usd' })
    // No card data: the shopper's email, the amount, the cart and the addresses are all this server sends.
    expect(Object.keys(request.body).sort()).toEqual([
      'allowed_payment_method_types',
      'cancel_url',
      'client_reference_id',
      'customer_email',
      'expires_at',
      'line_items',
      'metadata',
      'mode',
      'payment_intent_data',
      'success_url',
    ])
  })

  it('takes a deposit from a page the dealer allows, and refuses any other origin before Stripe is asked', async () => {
    const asked = stripe.requests.length
    expect((await startDeposit(carts[0]!, { firstName: 'Pat', email: 'pat@example.com' }, { origin: 'https://partner.example' })).status).toBe(201)
    const refused = await startDeposit(carts[0]!, { firstName: 'Eve', email: 'eve@example.com' }, { origin: 'https://elsewhere.example' })
    expect(refused.status).toBe(403)
    expect(stripe.requests.length).toBe(asked + 1)
  })

  it('refuses bad input beside its field, with nothing sent to Stripe', async () => {
    const asked = stripe.requests.length
    const response = await fetch(`${server.url}/api/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartId: carts[0]!.id, firstName: 'Ann', lastName: '', email: 'not-an-email', textConsent: true }),
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { issues: { path: string }[] }
    expect(body.issues.map((i) => i.path).sort()).toEqual(['email', 'lastName', 'phone'])
    expect(stripe.requests.length).toBe(asked)
  })

  it('refuses a bad signature with 400: unsigned, another secret, a changed body, an old timestamp; nothing is held', async () => {
    const cart = carts[1]!
    const { body } = await startDeposit(cart, { firstName: 'Sam', email: 'sam@example.com' })
    const event = stripe.completedEvent(sessionOf(body.url!).id)
    const webhook = `${server.url}/webhooks/stripe`
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600
    for (const signature of [
      null,
      stripe.sign(event.body, { secret: 'whsec_someoneelsessecret0000' }),
      stripe.sign(`${event.body} `),
      stripe.sign(event.body, { time: tenMinutesAgo }),
      't=1,v1=00',
    ]) {
      const response = await stripe.deliver(webhook, event.body, { signature })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ message: expect.stringMatching(/not signed by Stripe/) })
    }
    expect((await cartNow(cart.slug)).status).toBe('available')
    expect(await depositRows(cart.id)).toEqual([])
  })

  it('holds the cart on the signed completed event: On hold until, out of featured and feeds, a lead routed and alerted, a receipt', async () => {
    const cart = carts[1]!
    await server.db.sql`update golf_carts set featured = true where id = ${cart.id}`
    const { body } = await startDeposit(cart, { firstName: 'Sam', email: 'sam@example.com' })
    const before = Date.now()
    const { response } = pay(sessionOf(body.url!).id)
    expect((await response).status).toBe(200)
    const held = await cartNow(cart.slug)
    expect(held.status).toBe('hold')
    const until = Date.parse(held.holdUntil!)
    expect(until).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 1000)
    expect(until).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000)
    const featured = (await (await fetch(`${server.url}/api/golf-carts/featured?limit=100`)).json()) as { id: number }[]
    expect(featured.map((c) => c.id)).not.toContain(cart.id)
    const products = await (await fetch(`${server.url}/feeds/products.xml`)).text()
    expect(products).toContain(`/vehicle/${carts[0]!.slug}`)
    expect(products).not.toContain(`/vehicle/${cart.slug}<`)

    const page = await (await fetch(`${server.url}/vehicle/${cart.slug}`)).text()
    expect(page).toContain(onHoldUntil(held.holdUntil!))
    expect(page).not.toContain(holdButtonLabel({ amountCents: 50_000, holdDays: 7 }))

    const [deposit] = await depositRows(cart.id)
    expect(deposit).toMatchObject({ status: 'held' })
    const lead = await sales.staff.lead.get({ id: deposit!.inquiryId! })
    expect(lead).toMatchObject({ interest: 'deposit', owner: { username: 'maria' }, cart: { slug: cart.slug }, email: 'sam@example.com' })
    const [alert] = await server.db.sql<{ userId: number }[]>`select user_id from outbox_messages where inquiry_id = ${deposit!.inquiryId} and kind = 'staff-alert'`
    expect(alert?.userId).toBe(mariaId)
    await expect.poll(() => mailTo('sam@example.com', /Your deposit holds the/).length, { timeout: 10_000 }).toBe(1)
    expect(mailTo('sam@example.com', /Your deposit holds the/)[0]!.text).toContain('$500 deposit')
    await expect.poll(() => mailTo('maria@dealer.example', /New lead/).some((m) => m.subject!.includes('Sam')), { timeout: 10_000 }).toBe(true)
  })

  it('handles the same event delivered twice once', async () => {
    const cart = carts[2]!
    const { body } = await startDeposit(cart, { firstName: 'Rae', email: 'rae@example.com' })
    const event = stripe.completedEvent(sessionOf(body.url!).id)
    const webhook = `${server.url}/webhooks/stripe`
    const answers = await Promise.all([stripe.deliver(webhook, event.body), stripe.deliver(webhook, event.body)])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    expect((await stripe.deliver(webhook, event.body)).status).toBe(200)
    expect((await depositRows(cart.id)).map((d) => d.status)).toEqual(['held'])
    const [{ leads }] = await server.db.sql<[{ leads: number }]>`select count(*)::int as leads from contact_inquiries where email = 'rae@example.com'`
    expect(leads).toBe(1)
    const [{ audits }] = await server.db.sql<[{ audits: number }]>`select count(*)::int as audits from audit_log where entity = 'cart' and entity_id = ${String(cart.id)} and field = 'status'`
    expect(audits).toBe(1)
  })

  it('gives one hold of two payments for one cart at once; the other is refunded and its shopper told why, with similar carts', async () => {
    const cart = carts[3]!
    const first = await startDeposit(cart, { firstName: 'Ada', email: 'ada@example.com' })
    const second = await startDeposit(cart, { firstName: 'Bo', email: 'bo@example.com' })
    const refundsBefore = stripe.refunds.length
    const payments = [pay(sessionOf(first.body.url!).id), pay(sessionOf(second.body.url!).id)]
    expect((await Promise.all(payments.map((p) => p.response))).map((r) => r.status)).toEqual([200, 200])
    const deposits = await depositRows(cart.id)
    expect(deposits.map((d) => d.status).sort()).toEqual(['held', 'refunding'].sort())
    await expect.poll(() => stripe.refunds.length, { timeout: 10_000 }).toBe(refundsBefore + 1)
    const refunded = deposits.find((d) => d.status === 'refunding')!
    const refund = stripe.refunds.at(-1)!
    expect(refund.idempotencyKey).toBe(`deposit-${refunded.id}-refund`)
    const [{ paymentIntentId }] = await server.db.sql<[{ paymentIntentId: string }]>`select payment_intent_id from deposits where id = ${refunded.id}`
    const paid = payments.map((p) => (JSON.parse(p.event.body) as { data: { object: { payment_intent: string } } }).data.object.payment_intent)
    expect(paid).toContain(paymentIntentId)
    expect(refund.paymentIntent).toBe(paymentIntentId)
    await expect.poll(async () => (await depositRows(cart.id)).map((d) => d.status).sort(), { timeout: 10_000 }).toEqual(['held', 'refunded'])
    const [loser] = await server.db.sql<{ email: string }[]>`select email from deposits where id = ${refunded.id}`
    await expect.poll(() => mailTo(loser!.email, /has been refunded/).length, { timeout: 10_000 }).toBe(1)
    const told = mailTo(loser!.email, /has been refunded/)[0]!.text!
    expect(told).toMatch(/another shopper's deposit for the .* went through moments before yours/)
    expect(told).toMatch(/Carts like it, in stock now:\n- .*\/vehicle\//)
    expect((await cartNow(cart.slug)).status).toBe('hold')
  })

  it('refuses to start a deposit for a cart already held (409), with nothing sent to Stripe', async () => {
    const asked = stripe.requests.length
    const { status, body } = await startDeposit(carts[3]!, { firstName: 'Cy', email: 'cy@example.com' })
    expect(status).toBe(409)
    expect(body.message).toMatch(/^Another shopper holds the .* until \w+day, /)
    expect(stripe.requests.length).toBe(asked)
  })

  it('ends a hold by itself at holdUntil, its owner told the day before, once, whichever process looks', async () => {
    const cart = carts[4]!
    const { body } = await startDeposit(cart, { firstName: 'Dee', email: 'dee@example.com' })
    await (await pay(sessionOf(body.url!).id).response).text()
    const [deposit] = await depositRows(cart.id)
    const until = deposit!.holdUntil!.getTime()
    const holds = server.runtime.holds
    // Holds made by the tests before this one end seconds earlier: only this one's moments are asserted.
    expect((await holds.run(new Date(until - ownerNoticeMs - 60_000))).told).not.toContain(deposit!.id)
    // Two processes looking at once: one tells, once.
    const [a, b] = await Promise.all([holds.run(new Date(until - ownerNoticeMs + 60_000)), holds.run(new Date(until - ownerNoticeMs + 60_000))])
    const told = [...a.told, ...b.told]
    expect(told.filter((id) => id === deposit!.id)).toHaveLength(1)
    expect(new Set(told).size).toBe(told.length)
    const notice = () => mailTo('maria@dealer.example', /^Hold ends tomorrow/).filter((m) => m.subject!.includes(cart.title))
    await expect.poll(() => notice().length, { timeout: 10_000 }).toBe(1)
    expect(notice()[0]!.text).toContain(`${siteUrl}/staff/deposits`)
    expect((await holds.run(new Date(until - 1000))).ended).not.toContain(deposit!.id)
    expect((await cartNow(cart.slug)).status).toBe('hold')
    const [c, d] = await Promise.all([holds.run(new Date(until + 1000)), holds.run(new Date(until + 1000))])
    const ended = [...c.ended, ...d.ended]
    expect(ended.filter((id) => id === deposit!.id)).toHaveLength(1)
    expect(new Set(ended).size).toBe(ended.length)
    expect(await cartNow(cart.slug)).toMatchObject({ status: 'available', holdUntil: null })
    expect((await depositRows(cart.id)).map((r) => r.status)).toEqual(['expired'])
    const history = await server.db.sql<{ actor: string; before: string; after: string }[]>`
      select actor, before, after from audit_log where entity = 'cart' and entity_id = ${String(cart.id)} and field = 'status' order by id
    `
    expect(history).toEqual([
      { actor: 'deposit (Stripe)', before: 'available', after: 'hold' },
      { actor: 'hold ended (deposit)', before: 'hold', after: 'available' },
    ])
  })

  it('lets managers mark a held cart sold with the deposit counted, or refund one (retried until Stripe takes it); sales are refused', async () => {
    const [sold, refunded] = [carts[5]!, carts[6]!]
    for (const [cart, name] of [[sold, 'Eli'], [refunded, 'Flo']] as const) {
      const { body } = await startDeposit(cart, { firstName: name, email: `${name.toLowerCase()}@example.com` })
      await (await pay(sessionOf(body.url!).id).response).text()
    }
    const [soldDeposit] = await depositRows(sold.id)
    const [refundedDeposit] = await depositRows(refunded.id)
    await expect(sales.staff.deposit.markSold({ id: soldDeposit!.id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    const list = await manager.staff.deposit.list()
    expect(list.configured).toBe(true)
    expect(list.deposits.find((d) => d.id === soldDeposit!.id)).toMatchObject({ status: 'held', owner: 'maria', balanceDueCents: Math.round(sold.price * 100) - 50_000 })
    expect(await manager.staff.deposit.get({ id: soldDeposit!.id })).toEqual({ configured: true, deposit: list.deposits.find((d) => d.id === soldDeposit!.id) })
    await expect(manager.staff.deposit.get({ id: 999_999 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(sales.staff.deposit.get({ id: soldDeposit!.id })).rejects.toMatchObject({ code: 'FORBIDDEN' })

    const after = await manager.staff.deposit.markSold({ id: soldDeposit!.id })
    expect(after).toMatchObject({ status: 'sold', cart: { status: 'sold' }, balanceDueCents: Math.round(sold.price * 100) - 50_000 })
    await expect(manager.staff.deposit.refund({ id: soldDeposit!.id })).rejects.toMatchObject({ code: 'CONFLICT' })

    stripe.failRefunds(1)
    const refunds = stripe.refunds.length
    expect(await manager.staff.deposit.refund({ id: refundedDeposit!.id })).toMatchObject({ status: 'refunding', cart: { status: 'available' } })
    await expect.poll(() => stripe.refunds.length, { timeout: 10_000 }).toBe(refunds + 1)
    const attempts = stripe.requests.filter((r) => r.path === '/v1/refunds' && r.idempotencyKey === `deposit-${refundedDeposit!.id}-refund`)
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    await expect.poll(async () => (await depositRows(refunded.id)).map((d) => d.status), { timeout: 10_000 }).toEqual(['refunded'])
    await expect.poll(() => mailTo('flo@example.com', /has been refunded/).length, { timeout: 10_000 }).toBe(1)
    const changes = await server.db.sql<{ actor: string; entityId: string; after: string }[]>`
      select actor, entity_id, after from audit_log where entity = 'deposit' and actor = 'mike' order by id
    `
    expect(changes).toEqual([
      { actor: 'mike', entityId: String(soldDeposit!.id), after: 'sold' },
      { actor: 'mike', entityId: String(refundedDeposit!.id), after: 'refunding' },
    ])
  })

  it('offers Hold on an available cart’s page', async () => {
    const page = await (await fetch(`${server.url}/vehicle/${carts[7]!.slug}`)).text()
    expect(page).toContain(holdButtonLabel({ amountCents: 50_000, holdDays: 7 }))
    expect(page).toContain('data-island="hold"')
  })

  it('sends a confirmed renter a deposit link that opens Checkout; paid, the calendar shows it', async () => {
    const day = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)
    const visitor = createCaller(createContextInner(server.runtime.services, {}))
    const { id } = await visitor.inquiry.submit({
      ...shopper('Gus', 'gus@example.com'),
      rental: { cartType: '6-seater', plan: 'weekly', startDate: day, pickup: 'showroom', showroom: 'ocean-view' },
    })
    await expect(sales.staff.rental.sendDepositLink({ id })).rejects.toMatchObject({ code: 'CONFLICT' })
    await manager.staff.rental.setFleet({ cartType: '6-seater', carts: 3 })
    await sales.staff.rental.confirm({ id })
    expect(await sales.staff.rental.sendDepositLink({ id })).toMatchObject({ amountCents: 10_000 })
    await expect.poll(() => mailTo('gus@example.com', /rental with a \$100 deposit/).length, { timeout: 10_000 }).toBe(1)
    const link = mailTo('gus@example.com', /rental with a \$100 deposit/)[0]!.text!.match(/http\S+\/deposits\/pay\/\S+/)![0].replace(siteUrl, server.url)
    expect((await fetch(`${link}x`, { redirect: 'manual' })).status).toBe(404)
    const opened = await fetch(link, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    const session = sessionOf(opened.headers.get('location')!)
    expect(session).toMatchObject({ amount_total: 10_000, metadata: { kind: 'rental' } })
    expect((await fetch(link, { redirect: 'manual' })).headers.get('location')).toBe(session.url)
    expect((await (await pay(session.id).response).json())).toEqual({ received: true })
    const calendar = await sales.staff.rental.calendar({ from: day, days: 7 })
    expect(calendar.deposit).toEqual({ amountCents: 10_000 })
    expect(calendar.requests.find((r) => r.inquiryId === id)).toMatchObject({ deposit: 'paid' })
    await expect.poll(() => mailTo('gus@example.com', /rental deposit is paid/).length, { timeout: 10_000 }).toBe(1)
    expect((await fetch(link, { redirect: 'manual' })).headers.get('location')).toBe(`${siteUrl}/rentals?deposit=paid`)
  })
})

describe.each(backends)('without Stripe settings on %s', (backend) => {
  let server: TestServer
  let manager: ReturnType<typeof createCaller>
  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' })
    const { accounts, sessions } = server.runtime.services.staff
    const user = await accounts.add('mike', staffPassword, { role: 'manager', email: 'mike@dealer.example' })
    const { token } = await sessions.start(user, {})
    manager = createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true }))
  })
  afterAll(() => server?.close())

  it('has no deposits: no offer, POST /api/deposits and the webhook 404, the console names what to set', async () => {
    const [cart] = await server.db.sql<{ id: number }[]>`select id from golf_carts where status = 'available' limit 1`
    const start = await fetch(`${server.url}/api/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartId: cart!.id, firstName: 'Ann', lastName: 'Buyer', email: 'ann@example.com' }),
    })
    expect(start.status).toBe(404)
    expect((await fetch(`${server.url}/webhooks/stripe`, { method: 'POST', body: '{}' })).status).toBe(404)
    expect(await createCaller(createContextInner(server.runtime.services, {})).deposit.offer()).toBeNull()
    expect(await manager.staff.deposit.list()).toEqual({ configured: false, toSet: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'], deposits: [] })
    await expect(manager.staff.rental.sendDepositLink({ id: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    // A refund could not be made without Stripe: refused before anything is written.
    await expect(manager.staff.deposit.refund({ id: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    expect((await manager.staff.rental.calendar({})).deposit).toBeNull()
  })
})
