import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inventoryColumns } from '../carts/inventory-csv.ts'
import { withCheckDigit } from '../../domain/vin.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { migrate } from '../db/migrate.ts'
import { createServices, type Services } from '../services.ts'
import type { Actor } from './audit.ts'

/**
 * The inventory import against the database (PRODUCT.md, "import and export"): rows match by
 * stock number or are added, a file with any bad row changes nothing, every change is audited,
 * export then import changes nothing, and the site's caches hear of it.
 */
const actor: Actor = { id: null, name: 'npm run inventory' }
const vinA = withCheckDigit('5ZEVD5R40S0000101')
const vinB = withCheckDigit('5ZEVD5R40S0000102')
const header = 'stockNumber,title,description,price,status,vin,imageUrl'
const image = '/images/carts/2025-evolution-d5-ranger-4-plus.svg'
const rowA = `IMP-1,2025 Evolution D5 Ranger 4 Plus,Four seats.,11995,available,${vinA},${image}`
const rowB = `IMP-2,2025 Denago EV Nomad,Six seats.,14995,hold,,${image}`

describe.each(backends)('the inventory import on %s', (backend) => {
  let db: TestDatabase
  let services: Services
  const inventory = () => services.staff.inventory
  const cartCount = async () => (await db.sql<[{ n: number }]>`select count(*)::int as n from golf_carts`)[0].n
  const auditCount = async () => (await db.sql<[{ n: number }]>`select count(*)::int as n from audit_log`)[0].n

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    await migrate(db.sql)
    services = createServices(db.sql, undefined, undefined, {
      photoPolicy: { siteUrl: 'https://carts.example', allowedHosts: ['photos.example'], resolve: async () => ['10.0.0.7'] },
    })
  })
  afterAll(() => db?.close())

  it('adds carts whose stock numbers are new, with an audit entry each, and the site sees them at once', async () => {
    expect((await services.carts.list({})).total).toBe(0)
    const result = await inventory().importCsv(`${header}\n${rowA}\n${rowB}\n`, actor, { filesAllowed: true })
    expect(result).toMatchObject({ ok: true, applied: { added: 2, updated: 0, unchanged: 0 } })
    const listed = await services.carts.list({})
    expect(listed.carts.map((c) => c.title)).toEqual(['2025 Evolution D5 Ranger 4 Plus', '2025 Denago EV Nomad'])
    const cart = await services.carts.bySlug('2025-evolution-d5-ranger-4-plus')
    expect(cart).toMatchObject({ stockNumber: 'IMP-1', vin: vinA, price: 11995, status: 'available' })
    const audit = await db.sql`select actor, action, entity from audit_log order by id`
    expect(audit).toEqual([
      { actor: 'npm run inventory', action: 'create', entity: 'cart' },
      { actor: 'npm run inventory', action: 'create', entity: 'cart' },
    ])
  })

  it('updates the cart with the same stock number, auditing each changed field, and leaves the rest', async () => {
    const before = await auditCount()
    const changed = rowA.replace('11995', '12495').replace('Four seats.', '"Four seats, new tires."')
    const result = await inventory().importCsv(`${header}\n${changed}\n${rowB}\n`, actor, { filesAllowed: true })
    expect(result).toMatchObject({ ok: true, applied: { added: 0, updated: 1, unchanged: 1 } })
    expect(await cartCount()).toBe(2)
    expect((await services.carts.bySlug('2025-evolution-d5-ranger-4-plus'))?.price).toBe(12495)
    const rows = await db.sql`select field, before, after from audit_log where id > (select max(id) - 2 from audit_log) order by id`
    expect(await auditCount()).toBe(before + 2)
    expect(rows).toEqual([
      { field: 'description', before: 'Four seats.', after: 'Four seats, new tires.' },
      { field: 'price', before: 11995, after: 12495 },
    ])
  })

  it('keeps the values of columns a file leaves out', async () => {
    const result = await inventory().importCsv('stockNumber,title,description,price\nIMP-2,2025 Denago EV Nomad,Six seats.,13995\n', actor, { filesAllowed: true })
    expect(result).toMatchObject({ ok: true, applied: { updated: 1 } })
    expect(await services.carts.bySlug('2025-denago-ev-nomad')).toMatchObject({ price: 13995, status: 'hold', imageUrl: image })
  })

  it('a dry run reports the changes and writes nothing', async () => {
    const [before, audits] = [await cartCount(), await auditCount()]
    const result = await inventory().importCsv(`${header}\n${rowA.replace('IMP-1', 'IMP-3').replace(vinA, vinB)}\n`, actor, { dryRun: true, filesAllowed: true })
    expect(result).toMatchObject({ ok: true, plan: { adds: [{ line: 2 }] } })
    expect('applied' in result && result.applied).toBeFalsy()
    expect([await cartCount(), await auditCount()]).toEqual([before, audits])
  })

  it('changes nothing when any row is bad, and lists every bad row', async () => {
    const [before, audits] = [await cartCount(), await auditCount()]
    const file = [
      header,
      rowA,
      `IMP-4,2025 Denago EV City,City cart.,twelve,available,,${image}`,
      `IMP-5,2025 Denago EV City,City cart.,9995,reserved,,${image}`,
      `IMP-6,2025 Denago EV City,City cart.,9995,available,${vinA.slice(0, 8)}${vinA[8] === '1' ? '2' : '1'}${vinA.slice(9)},${image}`,
      `IMP-4,2025 Denago EV City,City cart.,9995,available,,${image}`,
    ].join('\n')
    const result = await inventory().importCsv(file, actor, { filesAllowed: true })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.map((p) => [p.line, p.field])).toEqual([
      [3, 'price'],
      [4, 'status'],
      [5, 'vin'],
    ])
    expect([await cartCount(), await auditCount()]).toEqual([before, audits])
    expect((await services.carts.bySlug('2025-evolution-d5-ranger-4-plus'))?.price).toBe(12495)
  })

  it('refuses a duplicate stock number in the file, and a VIN already on another cart', async () => {
    const dup = await inventory().importCsv(`${header}\n${rowB}\n${rowB.replace('hold', 'available')}\n`, actor, { filesAllowed: true })
    expect(dup).toMatchObject({ ok: false, problems: [{ line: 3, field: 'stockNumber' }] })
    const taken = await inventory().importCsv(`${header}\n${rowB.replace(',,', `,${vinA},`)}\n`, actor, { filesAllowed: true })
    expect(taken).toMatchObject({ ok: false, problems: [{ line: 2, field: 'vin', message: expect.stringContaining('IMP-1') }] })
  })

  it('refuses photos from hosts not allowed and from internal addresses, changing nothing', async () => {
    const audits = await auditCount()
    const file = `${header},photos\n${rowA},https://evil.example/a.jpg|https://photos.example/b.jpg|http://127.0.0.1/c.jpg\n`
    const result = await inventory().importCsv(file, actor, { filesAllowed: false })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/evil\.example is not allowed/),
      expect.stringMatching(/internal address \(10\.0\.0\.7\)/),
      expect.stringMatching(/127\.0\.0\.1 is not allowed/),
    ])
    expect(await auditCount()).toBe(audits)
  })

  it('is a round trip: export then import changes nothing', async () => {
    // A description keeps its lines through the file; a one-line field refuses one (issue #26).
    await db.sql`update golf_carts set serial_number = '=cmd|calc', description = 'Line one
line two', featured = true where stock_number = 'IMP-2'`
    const csv = await inventory().exportCsv()
    expect(csv.split('\r\n')[0]).toBe(inventoryColumns.join(','))
    expect(csv).toContain("'=cmd|calc")
    const audits = await auditCount()
    const result = await inventory().importCsv(csv, actor, { filesAllowed: true })
    expect(result).toMatchObject({ ok: true, applied: { added: 0, updated: 0, unchanged: await cartCount() } })
    expect(await auditCount()).toBe(audits)
    expect(await inventory().exportCsv()).toBe(csv)
  })

  it('refuses to apply a checked file after someone else changed one of its carts', async () => {
    const checked = await inventory().check(`${header}\n${rowA.replace('11995', '12995')}\n`, { filesAllowed: true })
    expect(checked.ok).toBe(true)
    if (!checked.ok) return
    await db.sql`update golf_carts set price = 10 where stock_number = 'IMP-1'`
    await expect(inventory().apply(checked.plan, actor)).rejects.toThrow(/changed since the file was checked/)
    expect((await db.sql`select price::float8 as price from golf_carts where stock_number = 'IMP-1'`)[0]).toEqual({ price: 10 })
  })

  it('adds carts with titles already taken under the next free slug', async () => {
    const result = await inventory().importCsv(`${header}\n${rowA.replace('IMP-1', 'IMP-7').replace(vinA, vinB)}\n`, actor, { filesAllowed: true })
    expect(result).toMatchObject({ ok: true, applied: { added: 1 } })
    expect(await services.carts.bySlug('2025-evolution-d5-ranger-4-plus-2')).toMatchObject({ stockNumber: 'IMP-7' })
  })
})
