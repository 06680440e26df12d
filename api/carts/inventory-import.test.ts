import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withCheckDigit } from '../../domain/vin.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { migrate } from '../db/migrate.ts'
import { createInventory } from '../staff/inventory.ts'
import { inventoryCsv, parseInventoryCsv } from './inventory-csv.ts'
import { applyImport, chooseSlugs, exportCarts, planImport, rowsPerStatement, StaleImportError } from './inventory-import.ts'
import { seed } from './seed.ts'
import { createCartStore } from './cart-store.ts'

/**
 * The import's rules that need the database (PRODUCT.md, "Import"), table by table: every reason
 * a row is refused there, all or nothing, export then import changes nothing, the write (slugs,
 * stock numbers, audit rows, columns left out) and a plan gone stale. The rules of the file alone
 * are in inventory-csv.test.ts.
 */
const image = '/images/carts/2025-evolution-d5-ranger-4-plus.svg'
const header = 'stockNumber,title,description,price,status,vin,imageUrl'
const vin = (n: number) => withCheckDigit(`5ZEVD5R40S${String(n).padStart(7, '0')}`)
const actor = { id: null, name: 'import test' }

describe('slugs for many added carts at once', () => {
  it('gives each title its slug or the first free -2, -3..., as one cart at a time would', () => {
    expect(chooseSlugs(['a', 'a', 'a-2', 'b', 'a'], new Set(['a', 'a-3']))).toEqual(['a-2', 'a-4', 'a-2-2', 'b', 'a-5'])
  })
})

describe.each(backends)('the inventory import against the database on %s', (backend) => {
  let db: TestDatabase
  let inventory: ReturnType<typeof createInventory>
  let writes = 0

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    await migrate(db.sql)
    await seed(db.sql)
    inventory = createInventory(db.sql, () => writes++, { photoPolicy: { siteUrl: 'http://localhost', allowedHosts: [] } })
  })
  afterAll(() => db?.close())
  beforeEach(() => {
    writes = 0
  })

  const rows = (csv: string) => {
    const parsed = parseInventoryCsv(csv)
    if (!parsed.ok) throw new Error(`the test's file must parse: ${JSON.stringify(parsed.problems)}`)
    return parsed.rows
  }
  const count = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from golf_carts`)[0]!.n
  const audits = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from audit_log`)[0]!.n
  const first = async () =>
    (await db.sql<{ id: number; stockNumber: string; title: string; price: number; imageUrl: string }[]>`
      select id, stock_number, title, price::float8 as price, image_url from golf_carts order by id limit 1
    `)[0]!

  describe('every reason the database refuses a row', () => {
    it('a VIN already on another cart, naming that cart', async () => {
      const holder = await first()
      await db.sql`update golf_carts set vin = ${vin(1)} where id = ${holder.id}`
      try {
        const planned = await planImport(db.sql, rows(`${header}\nNEW-1,A new cart,Two seats.,5000,available,${vin(1)},${image}`))
        expect(planned).toEqual({
          ok: false,
          problems: [{ line: 2, field: 'vin', message: `VIN ${vin(1)} is already on stock number ${holder.stockNumber} ("${holder.title}")` }],
        })
      } finally {
        await db.sql`update golf_carts set vin = null where id = ${holder.id}`
      }
    })

  })

  it('adds new carts from a file without an imageUrl column: each shows its model drawing, or "photos coming"', async () => {
    const file = 'stockNumber,title,description,price\nNOIMG-1,2026 Denago EV Nomad XL,Six seats.,12995\nNOIMG-2,A cart of no known model,Two seats.,5000'
    const planned = await planImport(db.sql, rows(file))
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems))
    await applyImport(db.sql, planned.plan, { id: null, name: 'import without images' })
    const carts = createCartStore(db.sql)
    const stored = await db.sql<{ slug: string; imageUrl: string | null }[]>`
      select slug, image_url from golf_carts where stock_number in ('NOIMG-1', 'NOIMG-2') order by stock_number
    `
    expect(stored.map((c) => c.imageUrl)).toEqual([null, null])
    expect((await carts.bySlug(stored[0]!.slug))?.imageUrl).toBe('/images/carts/models/denago-ev-nomad-xl.svg')
    expect((await carts.bySlug(stored[1]!.slug))?.imageUrl).toBe('/images/carts/photos-coming.svg')
    await db.sql`delete from golf_carts where stock_number in ('NOIMG-1', 'NOIMG-2')`
  })

  describe('all or nothing', () => {
    it('a file with one bad row among good adds and changes changes nothing, and lists the bad rows', async () => {
      const existing = await first()
      const before = { carts: await count(), audits: await audits() }
      const file = [
        header,
        `AON-1,A new cart,Two seats.,5000,available,,${image}`,
        `${existing.stockNumber},${existing.title},Changed.,${existing.price + 1},available,,${image}`,
        `AON-2,Another new cart,Two seats.,lots,available,,${image}`,
        `AON-3,A third new cart,Two seats.,5000,gone,,${image}`,
      ].join('\n')
      const result = await inventory.importCsv(file, actor, { filesAllowed: false })
      expect(result).toEqual({
        ok: false,
        problems: [expect.objectContaining({ line: 4, field: 'price' }), expect.objectContaining({ line: 5, field: 'status' })],
      })
      // A row the database refuses stops the good rows as well.
      const taken = await db.sql<{ stockNumber: string }[]>`select stock_number from golf_carts where vin is null order by id desc limit 1`
      await db.sql`update golf_carts set vin = ${vin(2)} where stock_number = ${taken[0]!.stockNumber}`
      const second = await inventory.importCsv(
        [header, `AON-1,A new cart,Two seats.,5000,available,,${image}`, `AON-4,Another,Two seats.,5000,available,${vin(2)},${image}`].join('\n'),
        actor,
        { filesAllowed: false },
      )
      await db.sql`update golf_carts set vin = null where vin = ${vin(2)}`
      expect(second).toMatchObject({ ok: false, problems: [{ line: 3, field: 'vin' }] })
      expect({ carts: await count(), audits: await audits() }).toEqual(before)
      expect((await first()).price).toBe(existing.price)
      expect(writes).toBe(0)
    })
  })

  describe('the round trip', () => {
    it('export then import changes nothing: every cart unchanged', async () => {
      const carts = await exportCarts(db.sql)
      const planned = await planImport(db.sql, rows(inventoryCsv(carts)))
      expect(planned).toEqual({ ok: true, plan: { adds: [], updates: [], unchanged: carts.length } })
      const text = await inventory.exportCsv()
      const result = await inventory.importCsv(text, actor, { filesAllowed: false })
      expect(result).toMatchObject({ ok: true, applied: { added: 0, updated: 0, unchanged: carts.length } })
      expect(writes).toBe(0)
    })
  })

  describe('the write', () => {
    it('adds carts with unique slugs and stock numbers, changes only what the file gives, and audits each', async () => {
      const existing = await first()
      const [taken] = await db.sql<{ slug: string; title: string }[]>`select slug, title from golf_carts order by id limit 1`
      const { slug: takenSlug, title: takenTitle } = taken!
      const before = { carts: await count() }
      const file = [
        'stockNumber,title,description,price,imageUrl',
        `W-1,${takenTitle},Same title as a cart we have.,7000,${image}`,
        `W-2,${takenTitle},And once more.,7100,${image}`,
        `,A cart without a stock number,Given one by the database.,7200,${image}`,
        `${existing.stockNumber},${existing.title},A new description.,${existing.price + 250},${existing.imageUrl}`,
      ].join('\n')
      const planned = await planImport(db.sql, rows(file))
      if (!planned.ok) throw new Error('the plan must pass')
      expect(planned.plan).toMatchObject({ adds: [{ line: 2 }, { line: 3 }, { line: 4 }], updates: [{ line: 5, id: existing.id }] })
      expect(planned.plan.updates[0]!.changes.map((c) => c.field).sort()).toEqual(['description', 'price'])
      const outcome = await applyImport(db.sql, planned.plan, actor)
      expect(outcome).toMatchObject({ added: 3, updated: 1, unchanged: 0, writeMs: expect.any(Number) })
      expect(await count()).toBe(before.carts + 3)

      const added = await db.sql<{ id: number; slug: string; stockNumber: string; version: number }[]>`
        select id, slug, stock_number, version from golf_carts order by id desc limit 3
      `
      const [noStock, second, firstAdded] = added
      expect(firstAdded!.slug).toBe(`${takenSlug}-2`)
      expect(second!.slug).toBe(`${takenSlug}-3`)
      expect(noStock).toMatchObject({ slug: 'a-cart-without-a-stock-number', stockNumber: `GC-${String(noStock!.id).padStart(4, '0')}` })

      // Columns the file leaves out (status, VIN, ...) keep the cart's values; the version moves on.
      const [changed] = await db.sql`select price::float8 as price, description, status, version from golf_carts where id = ${existing.id}`
      expect(changed).toMatchObject({ price: existing.price + 250, description: 'A new description.', status: 'available' })

      const log = await db.sql<{ entityId: string; action: string; field: string | null; before: unknown; after: unknown; actor: string }[]>`
        select entity_id, action, field, before, after, actor from audit_log where actor = ${actor.name} order by id
      `
      const created = log.filter((l) => l.action === 'create')
      expect(created.map((l) => l.entityId).sort()).toEqual(added.map((a) => String(a.id)).sort())
      expect(created.find((l) => l.entityId === String(firstAdded!.id))!.after).toMatchObject({
        slug: `${takenSlug}-2`,
        title: takenTitle,
        price: 7000,
        stockNumber: 'W-1',
        imageUrl: image,
      })
      expect(log.filter((l) => l.action === 'update')).toEqual([
        expect.objectContaining({ entityId: String(existing.id), field: 'description' }),
        expect.objectContaining({ entityId: String(existing.id), field: 'price', before: existing.price, after: existing.price + 250 }),
      ])
      expect(writes).toBe(0) // applyImport itself; the inventory service tells the caches (below)
    })

    it('writes carts that change different fields by the columns each changes, each cart exactly as the file says', async () => {
      const carts = await db.sql<{ id: number; stockNumber: string; title: string; description: string; price: number; imageUrl: string; version: number }[]>`
        select id, stock_number, title, description, price::float8 as price, image_url, version from golf_carts order by id limit 4
      `
      const [a, b, c, d] = carts
      const q = (text: string) => `"${text.replaceAll('"', '""')}"`
      const file = [
        'stockNumber,title,description,price,imageUrl',
        // Price only; title and description; price only again; everything but the stock number.
        `${a!.stockNumber},${q(a!.title)},${q(a!.description)},${a!.price + 1},${a!.imageUrl}`,
        `${b!.stockNumber},Evolution Classic 2 Plus Renamed,Now with a roof.,${b!.price},${b!.imageUrl}`,
        `${c!.stockNumber},${q(c!.title)},${q(c!.description)},${c!.price + 3},${c!.imageUrl}`,
        `${d!.stockNumber},Denago Rover XL Renamed,Lifted.,${d!.price + 4},${image}`,
      ].join('\n')
      const planned = await planImport(db.sql, rows(file))
      if (!planned.ok) throw new Error('the plan must pass')
      expect(await applyImport(db.sql, planned.plan, actor)).toMatchObject({ updated: 4 })
      const after = await db.sql<{ id: number; title: string; description: string; price: number; imageUrl: string; version: number; searchText: string }[]>`
        select id, title, description, price::float8 as price, image_url, version, search_text from golf_carts where id = any(${carts.map((x) => x.id)}) order by id
      `
      expect(after.map(({ searchText: _s, ...cart }) => cart)).toEqual([
        { id: a!.id, title: a!.title, description: a!.description, price: a!.price + 1, imageUrl: a!.imageUrl, version: a!.version + 1 },
        { id: b!.id, title: 'Evolution Classic 2 Plus Renamed', description: 'Now with a roof.', price: b!.price, imageUrl: b!.imageUrl, version: b!.version + 1 },
        { id: c!.id, title: c!.title, description: c!.description, price: c!.price + 3, imageUrl: c!.imageUrl, version: c!.version + 1 },
        { id: d!.id, title: 'Denago Rover XL Renamed', description: 'Lifted.', price: d!.price + 4, imageUrl: image, version: d!.version + 1 },
      ])
      // The words a search finds follow the new titles (a generated column of the title).
      expect(after[1]!.searchText).toContain(' renamed now with a roof ')
      expect(after[3]!.searchText).toContain(' denago rover xl renamed lifted ')
    })

    it('tells the caches once an import wrote something', async () => {
      const result = await inventory.importCsv(`${header}\nW-9,One more cart,Two seats.,5000,available,,${image}`, actor, { filesAllowed: false })
      expect(result).toMatchObject({ ok: true, applied: { added: 1 } })
      expect(writes).toBe(1)
    })
  })

  describe('a plan gone stale', () => {
    it('refuses the whole plan when a cart it changes was changed since, writing nothing', async () => {
      const existing = await first()
      const planned = await planImport(
        db.sql,
        rows(`${header}\nST-1,A new cart,Two seats.,5000,available,,${image}\n${existing.stockNumber},${existing.title},Stale.,1,available,,${image}`),
      )
      if (!planned.ok) throw new Error('the plan must pass')
      await db.sql`update golf_carts set featured = not featured where id = ${existing.id}`
      const before = { carts: await count(), audits: await audits() }
      await expect(applyImport(db.sql, planned.plan, actor)).rejects.toThrow(StaleImportError)
      await expect(applyImport(db.sql, planned.plan, actor)).rejects.toThrow(new RegExp(`stock number ${existing.stockNumber}`))
      expect({ carts: await count(), audits: await audits() }).toEqual(before)
    })

    it('is all or nothing across statements: a cart changed since, in the last run of rows, undoes the runs before it', async () => {
      // More carts than one statement takes, so the write is several statements in one transaction.
      const many = rowsPerStatement + 7
      const adds = Array.from({ length: many }, (_, i) => `BATCH-${i},Batch cart ${i},Two seats.,${5000 + i},available,,${image}`)
      const planned = await planImport(db.sql, rows([header, ...adds].join('\n')))
      if (!planned.ok) throw new Error('the plan must pass')
      const outcome = await applyImport(db.sql, planned.plan, actor)
      expect(outcome.added).toBe(many)
      const slugs = await db.sql<{ slug: string; stockNumber: string }[]>`
        select slug, stock_number from golf_carts where stock_number like 'BATCH-%' order by id
      `
      // In the file's order, each with its own title's slug, across the statements' boundary.
      expect(slugs.map((r) => r.stockNumber)).toEqual(adds.map((_, i) => `BATCH-${i}`))
      expect(slugs[rowsPerStatement]).toEqual({ slug: `batch-cart-${rowsPerStatement}`, stockNumber: `BATCH-${rowsPerStatement}` })

      const changes = [header, ...adds.map((_, i) => `BATCH-${i},Batch cart ${i},Four seats.,${6000 + i},available,,${image}`)].join('\n')
      const stale = await planImport(db.sql, rows(changes))
      if (!stale.ok) throw new Error('the plan must pass')
      expect(stale.plan.updates).toHaveLength(many)
      await db.sql`update golf_carts set featured = not featured where stock_number = ${`BATCH-${many - 1}`}`
      const before = { carts: await count(), audits: await audits() }
      await expect(applyImport(db.sql, stale.plan, actor)).rejects.toThrow(new RegExp(`stock number BATCH-${many - 1}`))
      expect({ carts: await count(), audits: await audits() }).toEqual(before)
      const [unchanged] = await db.sql<{ n: number }[]>`select count(*)::int as n from golf_carts where stock_number like 'BATCH-%' and price >= 6000`
      expect(unchanged!.n).toBe(0)
    })

    it('refuses a plan whose new stock number was added since', async () => {
      const planned = await planImport(db.sql, rows(`${header}\nST-2,A new cart,Two seats.,5000,available,,${image}`))
      if (!planned.ok) throw new Error('the plan must pass')
      await applyImport(db.sql, planned.plan, actor)
      const before = { carts: await count(), audits: await audits() }
      await expect(applyImport(db.sql, planned.plan, actor)).rejects.toThrow(/Stock number ST-2 was added since/)
      expect({ carts: await count(), audits: await audits() }).toEqual(before)
    })
  })
})
