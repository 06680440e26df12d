import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slugify } from '../../domain/slug.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import { type ServerProcess, startServerProcess } from '../../tests/support/server-process.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { createCartStore } from '../carts/cart-store.ts'
import { createUserStore } from '../users/user-store.ts'
import { openDatabase } from './database.ts'
import { migrate, readMigrations } from './migrate.ts'
import { startingInventory } from '../carts/starting-inventory.ts'
import { seed } from '../carts/seed.ts'

describe('migration files', () => {
  it('each have a number of their own, one after another from 0001', async () => {
    // Two helpers landing at once once both took 0012, and again 0017: a database applies both,
    // but "the migration 0017" no longer names one file.
    const numbers = (await readMigrations()).map((m) => Number(m.version.slice(0, 4)))
    expect(numbers).toEqual(numbers.map((_, i) => i + 1))
  })
})

describe.each(backends)('migrations and seed on %s', (backend) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase(backend)
  })
  afterAll(() => db?.close())

  it('applies every migration once, in order, and records it', async () => {
    const files = (await readMigrations()).map((m) => m.version)
    expect(await migrate(db.sql)).toEqual(files)
    const rows = await db.sql`select version from schema_migrations order by version`
    expect(rows.map((r) => r.version)).toEqual(files)
  })

  it('changes nothing when run again', async () => {
    expect(await migrate(db.sql)).toEqual([])
  })

  it('starts a database that applied the photo staging under its first number, 0012', async () => {
    await db.sql`update schema_migrations set version = '0012_import_photo_staging' where version = '0013_import_photo_staging'`
    expect(await migrate(db.sql)).toEqual(['0013_import_photo_staging'])
    const [column] = await db.sql`
      select count(*)::int as n from information_schema.columns where table_name = 'cart_photos' and column_name = 'import_id'
    `
    expect(column?.n).toBe(1)
    await db.sql`delete from schema_migrations where version = '0012_import_photo_staging'`
  })

  it('starts a database that applied the cart location under its first number, 0017, keeping where its carts are', async () => {
    await db.sql`update schema_migrations set version = '0017_cart_location' where version = '0018_cart_location'`
    await db.sql`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url, location)
      values ('moved-cart', 'moved-cart', 'Moved Cart', 'A cart staff placed at Waretown.', 5000, '/a.svg', 'waretown')
    `
    try {
      expect(await migrate(db.sql)).toEqual(['0018_cart_location'])
      expect(await db.sql`select location from golf_carts where slug = 'moved-cart'`).toEqual([{ location: 'waretown' }])
    } finally {
      await db.sql`delete from golf_carts where slug = 'moved-cart'`
      await db.sql`delete from schema_migrations where version = '0017_cart_location'`
    }
  })

  it('rolls back a failing migration entirely', async () => {
    const broken = [{ version: '9999_broken', sql: 'create table half_done (id int); select * from no_such_table;' }]
    await expect(migrate(db.sql, broken)).rejects.toThrow(/no_such_table/)
    const [table] = await db.sql`select to_regclass('half_done') as name`
    expect(table?.name).toBeNull()
    const [recorded] = await db.sql`select 1 from schema_migrations where version = '9999_broken'`
    expect(recorded).toBeUndefined()
  })

  it('seeds an empty database with the starting inventory', async () => {
    expect(await seed(db.sql)).toBe(startingInventory().length)
    const carts = await db.sql<{ title: string; slug: string; featured: boolean; category: string; imageUrl: string }[]>`
      select title, slug, featured, category, image_url from golf_carts order by id
    `
    expect(carts.length).toBeGreaterThanOrEqual(24)
    expect(carts.filter((c) => c.featured).length).toBeGreaterThanOrEqual(6)
    expect(carts.every((c) => c.category === 'new')).toBe(true)
    expect(carts.every((c) => c.imageUrl === `/images/carts/${slugify(c.title)}.svg`)).toBe(true)
    expect(new Set(carts.map((c) => specificationsFor(c.title).brand))).toEqual(new Set(['Evolution', 'Denago']))
  })

  it('covers every Evolution and Denago line the issue names', async () => {
    const titles = (await db.sql<{ title: string }[]>`select title from golf_carts`).map((r) => r.title).join('\n')
    for (const line of [
      'Evolution Classic', 'Evolution Carrier', 'Evolution Forester', 'Evolution Turfman', 'Evolution D3',
      'Evolution D5 Maverick', 'Evolution D5 Ranger', 'Evolution D6 Max GT', 'Evolution D6 Max XT',
      'Denago EV City', 'Denago EV Nomad', 'Denago EV Nomad XL', 'Denago EV Rover XL', 'Denago EV Rover XL6',
      'Denago EV Rover XXL',
    ]) {
      expect(titles).toContain(line)
    }
  })

  it('does not seed twice, even after the carts are deleted', async () => {
    expect(await seed(db.sql)).toBe(0)
    await db.sql`delete from golf_carts where title = '2025 Evolution Turfman 800'`
    expect(await seed(db.sql)).toBe(0)
    const [{ n }] = await db.sql<[{ n: number }]>`select count(*)::int as n from golf_carts`
    expect(n).toBe(startingInventory().length - 1)
  })

  it('gives a second cart with the same title the slug -2, then -3', async () => {
    const carts = createCartStore(db.sql)
    const cart = { title: '2025 Evolution Classic 4 Plus', description: 'Second unit', price: 10495, imageUrl: '/x.svg' }
    expect((await carts.add(cart)).slug).toBe('2025-evolution-classic-4-plus-2')
    expect((await carts.add(cart)).slug).toBe('2025-evolution-classic-4-plus-3')
  })

  it('keeps the per-category counts of listed carts right through inserts, category changes, sales and deletes', async () => {
    const count = async () =>
      Object.fromEntries((await db.sql<{ category: string; total: number }[]>`select category, total from golf_cart_counts`).map((r) => [r.category, r.total]))
    const actual = async () =>
      Object.fromEntries(
        (await db.sql<{ category: string; total: number }[]>`select category, count(*)::int as total from golf_carts where status <> 'sold' group by category`).map(
          (r) => [r.category, r.total],
        ),
      )
    expect(await count()).toEqual(await actual())
    await db.sql`update golf_carts set category = 'certified' where id in (select id from golf_carts order by id limit 3)`
    await db.sql`delete from golf_carts where id = (select max(id) from golf_carts)`
    await db.sql`update golf_carts set status = 'sold' where id in (select id from golf_carts order by id desc limit 2)`
    await db.sql`update golf_carts set status = 'hold' where id = (select max(id) from golf_carts)`
    expect(await count()).toMatchObject(await actual())
    expect((await count()).certified).toBe(3)
  })

  it('stores passwords only as salted hashes', async () => {
    const users = createUserStore(db.sql)
    await users.add('manager', 'correct horse battery staple')
    await users.add('clerk', 'correct horse battery staple')
    const rows = await db.sql<{ passwordHash: string }[]>`select password_hash from users order by id`
    expect(rows.every((r) => r.passwordHash.startsWith('scrypt$'))).toBe(true)
    expect(rows[0]?.passwordHash).not.toBe(rows[1]?.passwordHash)
    expect(JSON.stringify(rows)).not.toContain('correct horse')
    expect(await users.verify('manager', 'correct horse battery staple')).toMatchObject({ username: 'manager' })
    expect(await users.verify('manager', 'wrong horse battery staple')).toBeUndefined()
    await expect(db.sql`insert into users (username, password_hash) values ('x', 'plain')`).rejects.toThrow()
  })
})

/** Replicas that start together on a fresh PostgreSQL database (issue #11, point 8). */
describe.skipIf(!process.env.TEST_DATABASE_URL)('migrations started at once', () => {
  it('apply once when four connections migrate the same empty database at the same moment, five times over', async () => {
    for (let round = 0; round < 5; round++) {
      const db = await createTestDatabase('postgres')
      const pools = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl: db.url!, dataDir: null })))
      try {
        const results = await Promise.allSettled(pools.map((p) => migrate(p.sql)))
        expect(results.filter((r) => r.status === 'rejected')).toEqual([])
        const applied = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []))
        const files = (await readMigrations()).map((m) => m.version)
        expect(applied.sort()).toEqual(files)
        const rows = await db.sql`select version from schema_migrations order by version`
        expect(rows.map((r) => r.version)).toEqual(files)
      } finally {
        await Promise.all(pools.map((p) => p.close()))
        await db.close()
      }
    }
  }, 120_000)

  it('lets two server processes started at once on an empty database both serve', async () => {
    const db = await createTestDatabase('postgres')
    const servers: ServerProcess[] = []
    try {
      const starting = [0, 1].map(() => startServerProcess({ DATABASE_URL: db.url!, LOG_LEVEL: 'info' }, 90_000))
      const settled = await Promise.allSettled(starting)
      for (const s of settled) if (s.status === 'fulfilled') servers.push(s.value)
      expect(settled.filter((s) => s.status === 'rejected').map((s) => String((s).reason).slice(0, 400))).toEqual([])
      for (const server of servers) {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
        expect(await (await fetch(`${server.url}/api/golf-carts`)).json()).toHaveLength(startingInventory().length)
      }
      const migrated = servers.map((s) => Number(s.output().match(/"migrationsApplied":(\d+)/)?.[1]))
      expect(migrated.sort()).toEqual([0, (await readMigrations()).length])
    } finally {
      for (const server of servers) await server.stop()
      await db.close()
    }
  }, 120_000)
})
