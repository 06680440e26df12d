import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withCheckDigit } from '../../domain/vin.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { addStaff, signedInClient } from '../../tests/support/staff.ts'

/** The console's import: check a file to preview every change, confirm that preview, export. */
const vin = withCheckDigit('5ZEVD5R40S0000888')
const header = 'stockNumber,title,description,price,status,vin,imageUrl'
const image = '/images/carts/2025-evolution-d5-ranger-4-plus.svg'
const newCart = `CON-1,2025 Evolution D5 Ranger 4 Plus,Four seats.,11995,available,${vin},${image}`

describe.each(backends)('the console import on %s', (backend) => {
  let server: TestServer
  let cookie: string
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { cookie, origin: server.url, 'content-type': 'text/csv', ...headers }, body })

  beforeAll(async () => {
    server = await startTestServer(backend)
    await addStaff(server)
    cookie = (await signedInClient(server)).cookie
  })
  afterAll(() => server?.close())

  it('previews every change without making it, then applies exactly that preview', async () => {
    const exported = await (await fetch(`${server.url}/api/staff/inventory.csv`, { headers: { cookie } })).text()
    const firstRow = exported.split('\r\n')[1]!
    const changedRow = firstRow.replace(/^([^,]+,[^,]+,"[^"]*"|[^,]+,[^,]+,[^,]*),(\d+)/, (_m, head: string, price: string) => `${head},${Number(price) + 100}`)
    const file = [exported.split('\r\n')[0], changedRow].join('\r\n')
    const preview = await (await post('/api/staff/inventory/check', file)).json()
    expect(preview).toMatchObject({ ok: true, adds: [], updates: [{ line: 2, changes: [{ field: 'price' }] }], fingerprint: expect.any(String) })
    const stock = preview.updates[0].stockNumber as string
    const before = await server.db.sql`select price::float8 as price from golf_carts where stock_number = ${stock}`
    expect(preview.updates[0].changes[0]).toMatchObject({ before: before[0]!.price, after: before[0]!.price + 100 })

    const applied = await post(`/api/staff/inventory/import?fingerprint=${preview.fingerprint}`, file)
    expect(applied.status).toBe(200)
    expect(await applied.json()).toMatchObject({ added: 0, updated: 1 })
    const [audit] = await server.db.sql`select actor, field from audit_log order by id desc limit 1`
    expect(audit).toEqual({ actor: 'maria', field: 'price' })
  })

  it('refuses to apply a preview after the inventory changed, changing nothing', async () => {
    const file = `${header}\n${newCart}\n`
    const preview = await (await post('/api/staff/inventory/check', file)).json()
    expect(preview).toMatchObject({ ok: true, adds: [{ line: 2 }] })
    await server.db.sql`update golf_carts set vin = ${vin} where id = (select min(id) from golf_carts)`
    const refused = await post(`/api/staff/inventory/import?fingerprint=${preview.fingerprint}`, file)
    expect(refused.status).toBe(400)
    expect((await refused.json()).problems).toEqual([expect.objectContaining({ line: 2, field: 'vin' })])
    await server.db.sql`update golf_carts set vin = null where vin = ${vin}`
    const stale = await post('/api/staff/inventory/import?fingerprint=not-the-preview', file)
    expect(stale.status).toBe(409)
    expect((await server.db.sql`select 1 from golf_carts where stock_number = 'CON-1'`).length).toBe(0)
  })

  it('lists every bad row, and refuses photo file names (the console takes uploads)', async () => {
    const file = `${header},photos\n${newCart.replace('11995', 'ask')},cart.jpg\n`
    const answer = await (await post('/api/staff/inventory/check', file)).json()
    expect(answer).toMatchObject({ ok: false, problems: [{ line: 2, field: 'price' }] })
    const photos = await (await post('/api/staff/inventory/check', `${header},photos\n${newCart},cart.jpg\n`)).json()
    expect(photos).toMatchObject({ ok: false, problems: [{ line: 2, field: 'photos', message: expect.stringMatching(/upload photos instead/) }] })
  })

  it('answers 401 without a session and 403 from another origin', async () => {
    expect((await fetch(`${server.url}/api/staff/inventory/check`, { method: 'POST', body: 'x' })).status).toBe(401)
    expect((await fetch(`${server.url}/api/staff/inventory.csv`)).status).toBe(401)
    expect((await post('/api/staff/inventory/check', 'x', { origin: 'https://evil.example' })).status).toBe(403)
  })
})
