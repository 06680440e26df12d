import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartPicture } from '../../domain/cart-pictures.ts'
import { photoPath, type StaffPhoto } from '../../domain/photos.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, signIn } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * The phone list (issue #30, point 6): each row of the console's inventory shows the cart's cover
 * (or, without photos, the drawing visitors see), and "Duplicate this cart" opens a new draft's
 * form filled from a cart of the same model, without what is one cart's own.
 */
describe.each(backends)('the inventory list and Duplicate this cart on %s', (backend) => {
  let server: TestServer
  let cookie: string

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    await addStaff(server)
    cookie = (await signIn(server)).cookie!
  })
  afterAll(() => server?.close())

  const page = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie }, redirect: 'manual' })
    return parsePage(res.status, await res.text())
  }

  it("shows each cart's cover photo in its row, and the drawing of a cart without photos", async () => {
    const { carts } = await server.runtime.services.staff.cartRecords.list({ q: 'D6 Max GT4', limit: 5 })
    const [cart, other] = carts as [(typeof carts)[0], (typeof carts)[0] | undefined]
    const body = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#4a7' } }).jpeg().toBuffer()
    const res = await fetch(`${server.url}/api/staff/carts/${cart.id}/photos`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', cookie, origin: server.url },
      body: new Uint8Array(body),
    })
    expect(res.status).toBe(201)
    const photo = (await res.json()) as StaffPhoto

    const list = await page('/staff?q=D6+Max+GT4')
    const thumb = (id: number) => list.document.querySelector(`#cart-${id} .staff-table__thumb`)
    expect(thumb(cart.id)?.getAttribute('src')).toBe(photoPath(photo.key, 240, 'jpeg'))
    expect(thumb(cart.id)?.getAttribute('alt')).toBe('')
    if (other) expect(thumb(other.id)?.getAttribute('src')).toBe(cartPicture(other))
    // The stock number rides in the title's line for the phone's compact row.
    expect(list.text(`#cart-${cart.id} .staff-table__stock-inline`)).toBe(`${cart.stockNumber} ·`)
  })

  it('opens a new draft filled from the cart, without its stock number, VIN, serial number or featured, and saves it as a draft of the same model', async () => {
    const source = (await server.runtime.services.staff.cartRecords.get(1))!
    const cartPage = await page(staffPaths.cart(source.id))
    const link = cartPage.document.querySelector(`a[href="${staffPaths.duplicateCart(source.id)}"]`)
    expect(link?.textContent).toBe('Duplicate this cart')

    const form = await page(staffPaths.duplicateCart(source.id))
    expect(form.status).toBe(200)
    expect(form.text('h1')).toBe('Add a cart')
    expect(form.text('[role=status]')).toContain(`A copy of ${source.title}`)
    const value = (name: string) => form.document.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? form.document.querySelector(`[name="${name}"]`)?.textContent
    expect(value('title')).toBe(source.title)
    expect(value('price')).toBe(String(source.price))
    expect(value('location')).toBe(source.location)
    for (const own of ['stockNumber', 'vin', 'serialNumber']) expect(value(own), own).toBe('')
    expect(form.document.querySelector('[name="version"]')).toBeNull()
    expect(form.document.querySelector<HTMLInputElement>('[name="featured"]')?.checked ?? false).toBe(false)
    // The form posts to the new cart's address: a new draft, the source unchanged.
    expect(form.document.querySelector('form[data-cart-form]')?.getAttribute('action')).toBe(staffPaths.newCart)

    const fields = Object.fromEntries(
      [...form.document.querySelectorAll<HTMLInputElement>('form[data-cart-form] [name]')]
        .filter((field) => field.type !== 'checkbox' || field.checked)
        .map((field) => [field.name, field.value]),
    )
    const saved = await fetch(`${server.url}${staffPaths.newCart}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
      body: new URLSearchParams({ ...fields, stockNumber: 'GC-COPY-1' }),
    })
    expect(saved.status, await saved.clone().text()).toBe(303)
    const id = Number(/\/staff\/carts\/(\d+)/.exec(saved.headers.get('location') ?? '')?.[1])
    const copy = (await server.runtime.services.staff.cartRecords.get(id))!
    expect(copy).toMatchObject({ status: 'draft', featured: false, stockNumber: 'GC-COPY-1', vin: null, title: source.title, price: source.price, location: source.location })
    expect(copy.photos).toEqual([])
    expect(copy.id).not.toBe(source.id)
    expect(copy.slug).not.toBe(source.slug)
    expect(await server.runtime.services.staff.cartRecords.get(source.id)).toMatchObject({ version: source.version, stockNumber: source.stockNumber })

    // A copy of a cart that is not there is a 404, not an empty form.
    expect((await page(staffPaths.duplicateCart(999_999))).status).toBe(404)
    expect((await page('/staff/carts/new?copy=x')).status).toBe(404)
  })
})
