import { describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../tests/support/test-database.ts'
import { createLogger } from '../log.ts'
import { refreshStatisticsRegularly } from './statistics.ts'

describe('statistics on the embedded database', () => {
  it('are gathered soon after start and again later, so the planner knows how many leads there are', async () => {
    const db = await createTestDatabase('pglite', 'migrated')
    try {
      await db.sql`
        insert into contact_inquiries (first_name, last_name, email)
        select 'Lead', 'Number ' || i, 'lead' || i || '@example.com' from generate_series(1, 2000) i
      `
      const estimate = async () => (await db.sql<[{ n: number }]>`select reltuples::int as n from pg_class where relname = 'contact_inquiries'`)[0].n
      expect(await estimate()).toBeLessThan(1)
      const refresher = refreshStatisticsRegularly(db.sql, createLogger('silent'), { firstMs: 10, everyMs: 50 })
      try {
        await expect.poll(estimate, { timeout: 5000 }).toBe(2000)
        await db.sql`insert into contact_inquiries (first_name, last_name, email) values ('One', 'More', 'one@example.com')`
        await expect.poll(estimate, { timeout: 5000 }).toBe(2001)
      } finally {
        refresher.stop()
      }
    } finally {
      await db.close()
    }
  })
})
