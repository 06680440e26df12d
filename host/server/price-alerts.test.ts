import type { Email } from 'postal-mime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsePage } from '../../tests/support/html.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { addStaff, signIn } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { freePort, startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Price and search alerts over HTTP (PRODUCT.md, "watching a cart or a search", "what watchers
 * get"): `POST /api/alerts` and the forms without JavaScript, the confirmation link that a mail
 * scanner's GET cannot follow, the alert emails' headers as the mail server receives them, and
 * one-click unsubscribe by the RFC 8058 POST.
 */
const partner = 'https://partner.example'

describe.each(backends)('price alerts over HTTP on %s', (backend) => {
  let server: TestServer
  let smtp: SmtpSink

  beforeAll(async () => {
    smtp = await startSmtpSink()
    // The emails' links name SITE_URL: this server's own address.
    const port = await freePort()
    server = await startTestServer(
      backend,
      {
        SITE_URL: `http://127.0.0.1:${port}`,
        ALLOWED_ORIGINS: partner,
        SMTP_URL: smtp.url,
        LEADS_TO: 'leads@dealer.example',
        OUTBOX_POLL_MS: '100',
        ALERT_POLL_MS: '100',
        LOG_LEVEL: 'silent',
      },
      { site: true, port },
    )
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })

  const listedCart = async (offset: number) =>
    (await server.db.sql<{ id: number; slug: string; title: string; price: number }[]>`
      select id, slug, title, price::float8 as price from golf_carts where status = 'available' order by id offset ${offset} limit 1
    `)[0]!
  const mailTo = (address: string) => smtp.messages.filter((m) => m.to?.some((t) => t.address === address))
  const header = (email: Email, name: string) => email.headers.find((h) => h.key === name)?.value
  const linkIn = (email: Email, path: string) => new RegExp(`https?://[^\\s]+${path.replace('/', '\\/')}\\?token=[\\w-]+`).exec(email.text ?? '')?.[0]
  const page = async (url: string, init?: RequestInit) => {
    const res = await fetch(url, { redirect: 'manual', ...init })
    return parsePage(res.status, await res.text())
  }
  const form = (body: Record<string, string>, origin = server.url) => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams(body),
  })
  const watchOf = async (email: string) =>
    (await server.db.sql<{ confirmedAt: Date | null; search: unknown }[]>`select confirmed_at, search from cart_watches where email = ${email}`)[0]

  it('answers 202 and sends only a confirmation, whose link a mail scanner’s GET does not follow; its button does, once', async () => {
    const cart = await listedCart(0)
    const res = await fetch(`${server.url}/api/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: partner },
      body: JSON.stringify({ email: 'scanner@example.com', cartId: cart.id }),
    })
    expect(res.status).toBe(202)
    expect(res.headers.get('access-control-allow-origin')).toBe(partner)
    expect(await res.json()).toEqual({ accepted: true, message: 'Check your email and follow the link in it to turn the alert on.' })
    await expect.poll(() => mailTo('scanner@example.com').length, { timeout: 15_000 }).toBe(1)
    const [confirmation] = mailTo('scanner@example.com')
    expect(confirmation!.subject).toBe(`Confirm your price alert: ${cart.title}`)
    const confirm = linkIn(confirmation!, '/alerts/confirm')!
    expect(confirm).toBeDefined()

    // A mail scanner fetches every link, perhaps twice: the page only asks.
    for (let i = 0; i < 2; i++) {
      const scanned = await page(confirm)
      expect(scanned.status).toBe(200)
      expect(scanned.text('h1')).toBe('Confirm your alert')
      expect(scanned.document.querySelector('form[method="post"] button')?.textContent).toBe('Yes, turn the alert on')
      expect(scanned.meta('robots')).toBe('noindex, follow')
    }
    const head = await fetch(confirm, { method: 'HEAD' })
    expect(head.headers.get('cache-control')).toBe('no-store')
    expect(head.headers.get('referrer-policy')).toBe('no-referrer')
    expect((await watchOf('scanner@example.com'))?.confirmedAt).toBeNull()

    const pressed = await fetch(confirm, form({}))
    expect(pressed.status).toBe(303)
    expect(pressed.headers.get('location')).toBe(new URL(confirm).pathname + new URL(confirm).search)
    expect((await watchOf('scanner@example.com'))?.confirmedAt).toBeInstanceOf(Date)
    const on = await page(confirm)
    expect(on.text('h1')).toBe('Your alert is on')
    expect(on.text('.watch-link p')).toContain(cart.title)
    // The link works once: pressing again changes nothing and says the same.
    expect((await fetch(confirm, form({}))).status).toBe(303)
    expect((await page(confirm)).text('h1')).toBe('Your alert is on')
    expect(mailTo('scanner@example.com')).toHaveLength(1)
  })

  it('emails a price dropped by any writer, with one-click unsubscribe that a POST with the RFC 8058 body takes', async () => {
    const cart = await listedCart(1)
    await fetch(`${server.url}/api/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'oneclick@example.com', cartId: cart.id }),
    })
    await expect.poll(() => mailTo('oneclick@example.com').length, { timeout: 15_000 }).toBe(1)
    expect((await fetch(linkIn(mailTo('oneclick@example.com')[0]!, '/alerts/confirm')!, form({}))).status).toBe(303)

    // SQL by hand: the database itself records the change.
    await server.db.sql`update golf_carts set price = price - 400 where id = ${cart.id}`
    await expect.poll(() => mailTo('oneclick@example.com').length, { timeout: 60_000 }).toBe(2)
    const alert = mailTo('oneclick@example.com')[1]!
    expect(alert.subject).toBe(`Price drop: ${cart.title}, now $${(cart.price - 400).toLocaleString('en-US')}`)
    const stop = linkIn(alert, '/alerts/unsubscribe')!
    expect(header(alert, 'list-unsubscribe')).toBe(`<${stop}>`)
    expect(header(alert, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(alert.html).toContain(stop.replaceAll('&', '&amp;'))

    // The plain link's page asks first; a mail client's one-click POST (no Origin: a server) acts.
    expect((await page(stop)).text('h1')).toBe('Stop this alert?')
    const clicked = await fetch(stop, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(clicked.status).toBe(200)
    const done = parsePage(clicked.status, await clicked.text())
    expect(done.text('h1')).toBe('Alert stopped')
    expect(done.text('.watch-link p')).toContain(cart.title)
    expect(await watchOf('oneclick@example.com')).toBeUndefined()
    expect((await page(stop)).text('h1')).toBe('No alert at this link')
  })

  it('refuses an alert from a page the dealer has not allowed, as a lead is refused', async () => {
    const cart = await listedCart(2)
    const res = await fetch(`${server.url}/api/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.test' },
      body: JSON.stringify({ email: 'evil@example.com', cartId: cart.id }),
    })
    expect(res.status).toBe(403)
    expect(await watchOf('evil@example.com')).toBeUndefined()
    const forged = await fetch(`${server.url}/vehicle/${cart.slug}`, form({ form: 'watch', cartId: String(cart.id), email: 'evil@example.com' }, 'https://evil.test'))
    expect(forged.status).toBe(403)
    expect(await watchOf('evil@example.com')).toBeUndefined()
  })

  it('takes the cart page’s form without JavaScript, and shows a refusal beside the field with the address kept', async () => {
    const cart = await listedCart(3)
    const shown = await page(`${server.url}/vehicle/${cart.slug}`)
    expect(shown.text('.gc-watch summary')).toBe('Tell me if the price drops')
    expect(shown.document.querySelector('.gc-watch form')?.getAttribute('action')).toBe(`/vehicle/${cart.slug}`)

    const refused = await fetch(`${server.url}/vehicle/${cart.slug}`, form({ form: 'watch', cartId: String(cart.id), email: 'not an address' }))
    expect(refused.status).toBe(400)
    const again = parsePage(refused.status, await refused.text())
    expect(again.document.querySelector('.gc-watch')?.hasAttribute('open')).toBe(true)
    expect(again.document.querySelector('.gc-watch input[name="email"]')?.getAttribute('value')).toBe('not an address')
    expect(again.text('.gc-watch .gc-field__error')).toBe('Enter a valid email address, like name@example.com')

    const sent = await fetch(`${server.url}/vehicle/${cart.slug}`, form({ form: 'watch', cartId: String(cart.id), email: 'nojs@example.com' }))
    expect(sent.status).toBe(303)
    expect(sent.headers.get('location')).toBe(`/vehicle/${cart.slug}?watch=sent#watch`)
    expect((await page(`${server.url}/vehicle/${cart.slug}?watch=sent`)).text('.gc-watch__sent')).toBe(
      'Check your email: follow the link in it to turn the alert on. Nothing is sent until you do.',
    )
    expect(await watchOf('nojs@example.com')).toMatchObject({ confirmedAt: null })
  })

  it('watches the inventory’s current filters from its form without JavaScript', async () => {
    const address = '/inventory?make=denago&seats=6&sort=price-asc'
    const shown = await page(`${server.url}${address}`)
    expect(shown.text('.gc-watch summary')).toBe('Tell me about new carts like these')
    const hidden = Object.fromEntries(
      [...shown.document.querySelectorAll('.gc-watch input[type="hidden"]')].map((input) => [input.getAttribute('name'), input.getAttribute('value')]),
    )
    expect(hidden).toEqual({ form: 'watch', make: 'denago', seats: '6' })
    const sent = await fetch(`${server.url}${address}`, form({ ...(hidden as Record<string, string>), email: 'search-nojs@example.com' }))
    expect(sent.status).toBe(303)
    expect(sent.headers.get('location')).toBe(`${address}&watch=sent#watch`)
    expect(await watchOf('search-nojs@example.com')).toEqual({ confirmedAt: null, search: { make: ['denago'], seats: 6 } })
  })

  it('answers a link that is unknown or broken with a clear page that is not found, never kept', async () => {
    for (const link of ['/alerts/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/alerts/confirm?token=<broken>', '/alerts/unsubscribe']) {
      const answer = await page(`${server.url}${link}`)
      expect(answer.status, link).toBe(404)
      expect(answer.text('h1'), link).toMatch(/^(This link has expired|No alert at this link)$/)
    }
    expect((await fetch(`${server.url}/alerts/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, form({}))).status).toBe(303)
  })

  it('shows staff each cart’s watchers in the console’s inventory and on its page, never who they are', async () => {
    const cart = await listedCart(0)
    await addStaff(server, 'watch-counter', undefined, 'sales')
    const { cookie } = await signIn(server, 'watch-counter')
    const headers = { cookie: cookie! }
    const list = await page(`${server.url}/staff?q=${encodeURIComponent(cart.title)}`, { headers })
    expect(list.all('.staff-table thead th')).toContain('Watchers')
    const row = list.document.querySelector(`#cart-${cart.id}`)
    expect(row?.querySelector('td[data-label="Watchers"]')?.textContent).toBe('1 watching its price')
    const own = await page(`${server.url}/staff/carts/${cart.id}`, { headers })
    expect(own.text('.staff-watchers')).toBe('1 shopper is watching this cart’s price: a drop is emailed to them within a minute.')
    expect(own.html).not.toContain('scanner@example.com')
  })

  it('serves the shoppers’ service worker, apart from the console’s', async () => {
    const res = await fetch(`${server.url}/alerts/sw.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(await res.text()).toContain("addEventListener('push'")
  })
})
