import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { migrate, readMigrations } from './migrate.ts'

/**
 * Migration 0016 on a database where the old minimum-fill-time rule had caught leads: they were
 * told "Message sent" and reached nobody. They join the inbox, the recent ones get the dealer's
 * email they never had, and honeypot spam stays spam.
 */
describe.each(backends)('the no-lead-lost migration on %s', (backend) => {
  let db: TestDatabase
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    const all = await readMigrations()
    await migrate(db.sql, all.filter((m) => m.version < '0016'))
    const add = async (name: string, reason: string | null, daysAgo: number) => {
      const [row] = await db.sql<{ id: number }[]>`
        insert into contact_inquiries (first_name, last_name, email, spam_reason, created_at)
        values (${name}, 'Lead', ${`${name}@example.com`}, ${reason}, now() - ${daysAgo} * interval '1 day')
        returning id
      `
      ids[name] = row!.id
    }
    await add('recent', 'too-fast', 2)
    await add('older', 'too-fast', 40)
    await add('bot', 'honeypot', 2)
    await add('person', null, 2)
    await migrate(db.sql, all.filter((m) => m.version >= '0016'))
  })
  afterAll(() => db?.close())

  it('moves every lead the fill-time rule caught to the inbox and keeps honeypot spam', async () => {
    const rows = await db.sql<{ firstName: string; spamReason: string | null }[]>`select first_name, spam_reason from contact_inquiries order by id`
    expect(rows.map((r) => [r.firstName, r.spamReason])).toEqual([
      ['recent', null],
      ['older', null],
      ['bot', 'honeypot'],
      ['person', null],
    ])
  })

  it("queues the dealer's email for the rescued leads of the last 30 days only", async () => {
    const queued = await db.sql<{ inquiryId: number; kind: string }[]>`select inquiry_id, kind from outbox_messages`
    expect(queued.map((q) => [q.inquiryId, q.kind])).toEqual([[ids.recent, 'dealer-email']])
  })

  it('refuses the retired rule from now on', async () => {
    await expect(db.sql`update contact_inquiries set spam_reason = 'too-fast' where id = ${ids.person!}`).rejects.toThrow(/spam_reason_check/)
  })
})
