import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartRecordFields } from '../../domain/cart-record.ts'
import { consolePath, signInAddress, signInReturn, staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, followWithNotice, signIn, staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { cartFormSections } from '../staff/cart-form.tsx'
import { inventoryHref, inventoryQuery } from '../staff/inventory.tsx'
import { routeMatcher } from '../../api/staff/routes.ts'
import { consoleRoutes } from '../staff/render.tsx'

describe('the console pages, as lists', () => {
  it('puts every field of the cart record in exactly one section of the form', () => {
    const named = cartFormSections.flatMap((section) => (section.fields ?? []).map((field) => field.name))
    expect([...named].sort()).toEqual(Object.keys(cartRecordFields).sort())
  })

  it('keeps the table state in its address, defaults left out, unknown values ignored', () => {
    const state = inventoryQuery(new URLSearchParams('q=%20d6%20max&status=hold&sort=price-desc&page=3'))
    expect(state).toEqual({ q: 'd6 max', status: 'hold', sort: 'price-desc', page: 3 })
    expect(inventoryHref(state)).toBe('/staff?q=d6+max&status=hold&sort=price-desc&page=3')
    expect(inventoryHref(state, { page: 1, status: undefined })).toBe('/staff?q=d6+max&sort=price-desc')
    expect(inventoryQuery(new URLSearchParams('status=gone&sort=drop+table&page=-2'))).toEqual({ q: '', sort: 'newest', page: 1 })
  })

  it('finds the page of each address, and goes back only into the console', () => {
    const match = routeMatcher(consoleRoutes)
    expect(match('GET', '/staff')?.route.page.nav?.label).toBe('Inventory')
    expect(match('GET', '/staff/carts/new')?.route.page.path).toBe(staffPaths.newCart)
    expect(match('GET', '/staff/carts/12')?.params).toEqual({ id: '12' })
    expect(match('GET', '/staff/nothing')).toBeUndefined()
    expect(consolePath('/staff?q=x&page=2')).toBe('/staff?q=x&page=2')
    for (const elsewhere of ['https://evil.example/staff', '//evil.example', '/inventory', '/staffing', undefined, '/staff/..//evil.test', '/staff/%2e%2e//evil.test', '/staff/./..//evil.test']) {
      expect(consolePath(elsewhere)).toBe('/staff')
      // Sign-in leads back to a console page only; otherwise to the console's home.
      expect(signInReturn(elsewhere)).toBeUndefined()
    }
    expect(signInReturn('/staff/leads/123')).toBe('/staff/leads/123')
    for (const home of ['/staff', '/staff/', '/staff/login?next=/staff/x', '/staff/logout', '', 42]) expect(signInReturn(home)).toBeUndefined()
    expect(signInAddress('/staff/leads/123')).toBe('/staff/login?next=%2Fstaff%2Fleads%2F123')
    expect(signInAddress('/staff/leads/123', true)).toBe('/staff/login?step=code&next=%2Fstaff%2Fleads%2F123')
    expect(signInAddress(undefined)).toBe('/staff/login')
  })
})

describe.each(backends)('the console over HTTP on %s', (backend) => {
  let server: TestServer
  let cookie: string

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    await addStaff(server)
    cookie = (await signIn(server)).cookie!
  })
  afterAll(() => server?.close())

  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie, ...headers },
      body: new URLSearchParams(form),
    })
  const firstCart = async () => (await server.runtime.services.staff.cartRecords.get(1))!

  it('sends a browser without a session to the sign-in page, which is never indexed', async () => {
    const page = await fetch(`${server.url}/staff/carts/1`, { redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/staff/login?next=%2Fstaff%2Fcarts%2F1')
    const login = await fetch(`${server.url}/staff/login`)
    expect(login.status).toBe(200)
    expect(login.headers.get('x-robots-tag')).toBe('noindex, nofollow')
    expect(login.headers.get('cache-control')).toBe('no-store')
    const html = await login.text()
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">')
    expect(html).toMatch(/<label for="username">Username<\/label>/)
  })

  it('answers a refused sign-in with the form again: status, message, the username kept and escaped', async () => {
    // No account can have this username, so it is refused before any work: 400, the same words.
    const refused = await signIn(server, 'maria"><b>', 'wrong password here')
    expect(refused.status).toBe(400)
    expect(refused.body).toContain('That username and password do not match an account.')
    expect(refused.body).toContain('value="maria&quot;&gt;&lt;b&gt;"')
    expect(refused.body).not.toContain('<b>')
  })

  it('renders the inventory for a session, never cached', async () => {
    const res = await fetch(`${server.url}/staff?status=available&sort=title`, { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const page = parsePage(res.status, await res.text())
    // Computed from the seeded data, 50 a page.
    const [{ total }] = await server.db.sql<[{ total: number }]>`select count(*)::int as total from golf_carts`
    const titles = (await server.db.sql<{ title: string }[]>`select title from golf_carts`).map((c) => c.title)
    expect(page.text('#inventory-count')).toBe(`1–${Math.min(50, total)} of ${total} carts`)
    expect(page.all('.staff-table__cart a')).toHaveLength(Math.min(50, total))
    expect(titles).toContain(page.all('.staff-table__cart a')[0])
  })

  it('answers an address as the guard matched it: any case, a trailing slash, the same page', async () => {
    for (const path of ['/staff/leads', '/Staff/Leads', '/staff/leads/', '/STAFF/CARTS/1/']) {
      const res = await fetch(`${server.url}${path}`, { headers: { cookie } })
      expect(res.status, path).toBe(200)
      expect(parsePage(res.status, await res.text()).text('h1'), path).toBe(path.toLowerCase().includes('carts') ? (await firstCart()).title : 'Leads')
    }
  })

  it('resolves the session once per request, however many procedures the page calls', async () => {
    const sessions = server.runtime.services.staff.sessions
    const resolve = sessions.resolve
    let calls = 0
    sessions.resolve = (token) => ((calls += 1), resolve(token))
    try {
      for (const path of [staffPaths.console, staffPaths.cart(1), staffPaths.account]) {
        calls = 0
        expect((await fetch(`${server.url}${path}`, { headers: { cookie } })).status, path).toBe(200)
        expect(calls, path).toBe(1)
      }
    } finally {
      sessions.resolve = resolve
    }
  })

  it('answers a page the role does not include with 403 and a sentence, and leaves its links out of the navigation', async () => {
    await server.runtime.services.staff.accounts.add('sales-sam', staffPassword, { role: 'sales' })
    const sales = (await signIn(server, 'sales-sam')).cookie!
    const refused = await fetch(`${server.url}${staffPaths.settings}`, { headers: { cookie: sales } })
    expect(refused.status).toBe(403)
    const page = parsePage(refused.status, await refused.text())
    expect(page.text('h1')).toBe('Not allowed')
    expect(page.text('[role="alert"]')).toBe('Only owners can see the settings; your account’s role is sales.')
    expect(page.all('.staff-nav a')).toEqual(['Inventory', 'Leads', 'Appointments', 'Rentals', 'Your account', 'View the site'])
    const post = await fetch(`${server.url}${staffPaths.deleteCart(1)}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie: sales },
    })
    expect(post.status).toBe(403)
    expect(await firstCart()).toBeDefined()
    const cartPage = parsePage(200, await (await fetch(`${server.url}${staffPaths.cart(1)}`, { headers: { cookie: sales } })).text())
    expect(cartPage.all('.staff-danger a')).toEqual([])
    const ownerNav = parsePage(200, await (await fetch(`${server.url}/staff`, { headers: { cookie } })).text()).all('.staff-nav a')
    expect(ownerNav).toEqual(expect.arrayContaining(['Inventory', 'Leads', 'Deposits', 'Feeds', 'Settings']))
  })

  it('saves the owner\'s settings from their page and says so; a refused value keeps the form', async () => {
    // Only an owner with a second step may require one of everyone (else they would be sent away too).
    const refused = await post(staffPaths.settings, { section: 'sign-in', requireSecondStep: 'true' })
    expect(refused.status).toBe(400)
    await server.db.sql`update users set totp_secret = ${'A'.repeat(32)}, totp_enabled_at = now() where username = 'maria'`
    const saved = await post(staffPaths.settings, { section: 'sign-in', requireSecondStep: 'true' })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe('/staff/settings#section-sign-in')
    expect(await server.runtime.services.staff.settings.get()).toMatchObject({ requireSecondStep: true })
    const page = parsePage(200, (await followWithNotice(server, cookie, saved)).html)
    expect(page.text('[role="status"]')).toBe('Settings saved.')
    // Stopping it asks the current password, refused beside its field.
    const asked = await post(staffPaths.settings, { section: 'sign-in' })
    expect(asked.status).toBe(400)
    const askedPage = parsePage(400, await asked.text())
    expect(askedPage.text('#settings-current-error')).toMatch(/password/)
    expect(await server.runtime.services.staff.settings.get()).toMatchObject({ requireSecondStep: true })
    expect((await post(staffPaths.settings, { section: 'sign-in', current: staffPassword })).status).toBe(303)
    expect(await server.runtime.services.staff.settings.get()).toMatchObject({ requireSecondStep: false })
    expect((await post(staffPaths.settings, { section: 'nonsense' })).status).toBe(400)
    await server.db.sql`update users set totp_secret = null, totp_enabled_at = null where username = 'maria'`
  })

  it('refuses a one-step change posted from another site, and changes nothing', async () => {
    const before = await firstCart()
    const res = await post(staffPaths.quickChange(1), { price: '1', status: 'sold', back: '/staff' }, { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('Staff changes are accepted only from the site itself.')
    expect((await firstCart()).price).toBe(before.price)
    expect((await firstCart()).status).toBe(before.status)
  })

  it('orders the featured carts without script: up, down and to a place, each a plain form post', async () => {
    await server.db.sql`update golf_carts set featured = false`
    const four = await server.db.sql<{ id: number; title: string }[]>`select id, title from golf_carts where status = 'available' order by id limit 4`
    await server.db.sql`update golf_carts set featured = true where id in ${server.db.sql(four.map((cart) => cart.id))}`
    const [a, b, c, d] = four.map((cart) => cart.id) as [number, number, number, number]
    const order = async () => (await server.runtime.services.staff.featuredOrder.list()).map((cart) => cart.id)
    const page = async (path: string = staffPaths.featured) => parsePage(200, await (await fetch(`${server.url}${path}`, { headers: { cookie } })).text())

    const listed = await page()
    expect(listed.text('h1')).toBe('Featured carts')
    expect(listed.all('.staff-featured__cart a')).toEqual(four.map((cart) => cart.title))
    // The first cannot go up, the last cannot go down.
    expect(listed.document.querySelector(`#featured-${a} button[value="up"]`)?.hasAttribute('disabled')).toBe(true)
    expect(listed.document.querySelector(`#featured-${d} button[value="down"]`)?.hasAttribute('disabled')).toBe(true)

    const moved = await post(staffPaths.featured, { id: String(c), move: 'up' })
    expect(moved.status).toBe(303)
    expect(moved.headers.get('location')).toBe(`${staffPaths.featured}#featured-${c}`)
    expect(await order()).toEqual([a, c, b, d])
    const shown = await followWithNotice(server, cookie, moved)
    expect(parsePage(200, shown.html).text('[role="status"]')).toBe(`${four[2]!.title} is now number 2.`)
    expect((await post(staffPaths.featured, { id: String(a), move: 'down' })).status).toBe(303)
    expect(await order()).toEqual([c, a, b, d])
    expect((await post(staffPaths.featured, { id: String(d), move: 'place', place: '1' })).status).toBe(303)
    expect(await order()).toEqual([d, c, a, b])

    // A place out of range is refused beside its field; a cart not featured, above the list.
    const refused = await post(staffPaths.featured, { id: String(b), move: 'place', place: '9' })
    expect(refused.status).toBe(400)
    expect(parsePage(400, await refused.text()).text(`#place-${b}-error`)).toBe('Give a place from 1 to 4.')
    const typed = await post(staffPaths.featured, { id: String(b), move: 'place', place: 'first' })
    expect(parsePage(400, await typed.text()).text(`#place-${b}-error`)).toBe('Give a place from 1 to 4.')
    const gone = await post(staffPaths.featured, { id: '999999', move: 'up' })
    expect(gone.status).toBe(409)
    expect(parsePage(409, await gone.text()).text('[role="alert"]')).toMatch(/no longer featured/)
    // From another site: refused, nothing moved.
    expect((await post(staffPaths.featured, { id: String(b), move: 'up' }, { origin: 'https://evil.example' })).status).toBe(403)
    expect(await order()).toEqual([d, c, a, b])
    // The home page's first three are the first three of that order.
    const home = (await server.runtime.services.carts.featured(3)).map((cart) => cart.id)
    expect(home).toEqual([d, c, a])
  })

  it('shows a refused price beside its row with what was typed, and saves nothing', async () => {
    const before = await firstCart()
    const res = await post(staffPaths.quickChange(1), { price: '-5', status: 'hold', back: '/staff?sort=oldest' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('id="price-1-error"')
    expect(html).toContain('Price cannot be negative')
    expect(html).toMatch(/id="price-1"[^>]*value="-5"/)
    expect((await firstCart()).status).toBe(before.status)
  })

  it('saves a one-step change and comes back to the same page of the list', async () => {
    const res = await post(staffPaths.quickChange(1), { price: '9,999', status: 'available', featured: 'true', back: '/staff?sort=oldest' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/staff?sort=oldest#cart-1')
    expect(await firstCart()).toMatchObject({ price: 9999, status: 'available', featured: true })
    // What was saved is said once on the list (a flash), not carried in its address.
    const { html } = await followWithNotice(server, cookie, res)
    expect(parsePage(200, html).text('[role="status"].staff-alert')).toBe(`Saved ${(await firstCart()).title}: $9,999, In Stock, featured.`)
  })

  it('goes back only into the console after a one-step change, judged after URL normalisation (issue #26)', async () => {
    for (const back of ['/staff/..//evil.test', '/staff/%2e%2e//evil.test', '/staff/./..//evil.test?x=1']) {
      const res = await post(staffPaths.quickChange(1), { price: '9,999', status: 'available', featured: 'true', back })
      expect(res.status, back).toBe(303)
      expect(res.headers.get('location'), back).toBe('/staff#cart-1')
    }
  })

  it('refuses a whole save with errors per field, and a stale copy with a sentence', async () => {
    const refused = await post(staffPaths.newCart, { title: '', description: 'x', price: 'ten', imageUrl: 'https://x', condition: 'new', status: 'available' })
    expect(refused.status).toBe(400)
    const html = await refused.text()
    for (const field of ['title', 'price', 'imageUrl']) expect(html).toContain(`id="field-${field}-error"`)
    expect(html).toContain('value="ten"')
    const cart = await firstCart()
    const stale = await post(staffPaths.cart(1), {
      title: cart.title,
      description: cart.description,
      price: String(cart.price),
      imageUrl: cart.imageUrl ?? '',
      condition: 'new',
      status: 'available',
      location: cart.location,
      version: String(cart.version - 1),
    })
    expect(stale.status).toBe(409)
    expect(await stale.text()).toContain('Someone changed this cart after you opened it.')
  })

  it('answers a cart that is not there with 404, and an address that is no page too', async () => {
    expect((await fetch(`${server.url}/staff/carts/99999`, { headers: { cookie } })).status).toBe(404)
    expect((await fetch(`${server.url}/staff/carts/abc`, { headers: { cookie } })).status).toBe(404)
    expect((await fetch(`${server.url}/staff/nothing-here`, { headers: { cookie } })).status).toBe(404)
    expect((await fetch(`${server.url}${staffPaths.quickChange(1)}`, { headers: { cookie } })).status).toBe(404)
  })

  it('deletes a cart only after asking, and it is gone from the site', async () => {
    const cart = (await server.runtime.services.staff.cartRecords.get(2))!
    const asked = await fetch(`${server.url}${staffPaths.deleteCart(2)}`, { headers: { cookie } })
    expect(asked.status).toBe(200)
    expect(parsePage(200, await asked.text()).text('h1')).toBe(`Delete ${cart.title}?`)
    const res = await post(staffPaths.deleteCart(2), {})
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/staff')
    expect(await server.runtime.services.staff.cartRecords.get(2)).toBeUndefined()
    expect((await fetch(`${server.url}/vehicle/${cart.slug}`)).status).toBe(404)
  })

  it('signs out with the form, and the session is gone', async () => {
    const { cookie: other } = await signIn(server, 'maria', staffPassword)
    const out = await post(staffPaths.logout, {}, { cookie: other! })
    expect(out.status).toBe(303)
    expect((await fetch(`${server.url}/staff`, { redirect: 'manual', headers: { cookie: other! } })).status).toBe(303)
  })
})
