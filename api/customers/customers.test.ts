import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ValidInquiry } from '../../domain/inquiry.ts'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import type { Sql } from '../db/database.ts'
import { migrate, readMigrations } from '../db/migrate.ts'
import { buildStaffAlert } from '../leads/messages.ts'
import { createServices, type Services } from '../services.ts'

/**
 * Customers (issue #50, and issue #47's repeat; PRODUCT.md "customers"): one record per person,
 * found by the same email or the same phone (digits only), joined in the lead's own transaction;
 * a repeat goes to the salesperson who has the customer, not the next in turn, and its alert
 * says so. Leads arrive at once through two sets of services, each with its own connections: on
 * PostgreSQL, two processes as far as the database can tell (PGlite serves one process).
 */
const lead = (over: Partial<ValidInquiry>): ValidInquiry => ({ firstName: 'Dana', lastName: 'Whitaker', email: 'dana@example.com', ...over })
const settings = { from: 'website@dealer.example', leadsTo: ['leads@dealer.example'], adfTo: [], siteUrl: 'https://carts.example', mark: '0123456789abcdef' }

describe.each(backends)('customers on %s', (backend) => {
  let db: TestDatabase
  let second: Sql | undefined
  let one: Services
  let other: Services
  const staff: Record<string, number> = {}
  const ownerOf = async (id: number) => (await db.sql<{ ownerId: number | null }[]>`select owner_id from contact_inquiries where id = ${id}`)[0]!.ownerId
  const customerOf = async (id: number) => (await db.sql<{ customerId: number | null }[]>`select customer_id from contact_inquiries where id = ${id}`)[0]!.customerId
  const nameOf = (id: number | null) => Object.entries(staff).find(([, value]) => value === id)?.[0]
  /** Leads sent at once, alternating between the two sets of services. */
  const atOnce = (leads: ValidInquiry[]) => Promise.all(leads.map((l, i) => (i % 2 ? other : one).inquiries.add(l).then((r) => r.id)))

  beforeAll(async () => {
    db = await createTestDatabase(backend, 'seeded')
    second = db.url ? postgres(db.url, { max: 10, transform: postgres.camel, onnotice: () => {} }) : undefined
    one = createServices(db.sql, { notifications: ['dealer-email'] })
    other = second ? createServices(second, { notifications: ['dealer-email'] }) : one
    for (const name of ['alice', 'bob', 'carol', 'dmitri']) {
      staff[name] = (await one.staff.accounts.add(name, staffPassword, { role: 'sales', email: `${name}@dealer.example` })).id
    }
    await one.staff.settings.save(
      { id: null, name: 'test' },
      { leadRouting: { other: [staff.alice!, staff.bob!, staff.carol!], denago: [staff.dmitri!] } },
    )
  })
  afterAll(async () => {
    await second?.end()
    await db?.close()
  })

  it('makes one customer of two leads of a new shopper arriving at once, and gives both to one salesperson', async () => {
    for (let round = 0; round < 4; round++) {
      const ids = await atOnce([
        lead({ firstName: 'Erin', email: `Erin${round}@Example.com`, phone: `609-555-01${round}0` }),
        lead({ firstName: 'Erin', email: `erin${round}@example.com`, phone: `(609) 555 01${round}0 x12` }),
        lead({ firstName: 'Other', email: `other${round}@example.com` }),
      ])
      const [a, b, noise] = await Promise.all(ids.map(customerOf))
      expect(a).not.toBeNull()
      expect(b).toBe(a)
      expect(noise).not.toBe(a)
      expect(await ownerOf(ids[1]!)).toBe(await ownerOf(ids[0]!))
      // The one that joined second (it waited for the other's customer) is a repeat of the other, and its alert says so.
      const links = await db.sql<{ id: number; repeatOf: number | null }[]>`select id, repeat_of from contact_inquiries where id in ${db.sql(ids.slice(0, 2))}`
      const repeats = links.filter((l) => l.repeatOf !== null)
      expect(repeats).toHaveLength(1)
      const [{ id: repeat, repeatOf: first }] = repeats as [{ id: number; repeatOf: number }]
      expect(ids.slice(0, 2)).toEqual(expect.arrayContaining([repeat, first]))
      const stored = (await one.inquiries.byId(repeat))!
      expect(buildStaffAlert('staff-alert', stored, ['x@dealer.example'], settings).subject).toBe(`Repeat lead #${repeat} (after #${first}): Erin Whitaker`)
    }
  })

  it('gives a repeat to the salesperson who has the customer, not the next in turn, while leads pour in', async () => {
    const { id: firstLead } = await one.inquiries.add(lead({ email: 'dana@example.com', phone: '732-555-0123' }))
    const danas = nameOf(await ownerOf(firstLead))!
    const repeats = [
      lead({ email: 'DANA@example.com' }),
      lead({ email: 'dana.work@example.com', phone: '+1 (732) 555-0123' }),
      lead({ email: 'dana@example.com', phone: '7325550123' }),
    ]
    const strangers = Array.from({ length: 6 }, (_, n) => lead({ firstName: 'New', email: `new${n}@example.com` }))
    const ids = await atOnce([...repeats, ...strangers])
    const owners = await Promise.all(ids.map(async (id) => nameOf(await ownerOf(id))))
    expect(owners.slice(0, 3)).toEqual([danas, danas, danas])
    // The strangers took turns, two each: the repeats took no one's turn.
    const counts = Object.fromEntries(['alice', 'bob', 'carol'].map((name) => [name, owners.slice(3).filter((o) => o === name).length]))
    expect(counts).toEqual({ alice: 2, bob: 2, carol: 2 })
    const customer = await customerOf(firstLead)
    expect(await Promise.all(ids.slice(0, 3).map(customerOf))).toEqual([customer, customer, customer])
    // Its salesperson is alerted, and the alert names the lead it repeats.
    for (const id of ids.slice(0, 3)) {
      const alerts = await db.sql<{ userId: number }[]>`select user_id from outbox_messages where inquiry_id = ${id} and kind = 'staff-alert'`
      expect(alerts.map((a) => nameOf(a.userId))).toEqual([danas])
      const stored = (await one.inquiries.byId(id))!
      expect(buildStaffAlert('staff-alert', stored, ['x@dealer.example'], settings).text).toMatch(new RegExp(`^A repeat of lead #${stored.repeatOf}: Dana wrote before\\.`))
    }
  })

  it('gives a repeat to the next in turn when its salesperson does not take that interest', async () => {
    const { id } = await one.inquiries.add(lead({ email: 'dana@example.com', interest: 'denago' }))
    expect(nameOf(await ownerOf(id))).toBe('dmitri')
    // Dmitri has her now, but takes no leads of no interest: the next one goes to the next in turn.
    const { id: next } = await one.inquiries.add(lead({ email: 'dana@example.com' }))
    expect(['alice', 'bob', 'carol']).toContain(nameOf(await ownerOf(next)))
  })

  it('merges two customers a lead shows are one person (the email of one, the phone of the other)', async () => {
    const { id: a } = await one.inquiries.add(lead({ firstName: 'Gus', email: 'gus@example.com', phone: '856-555-0101' }))
    const { id: b } = await one.inquiries.add(lead({ firstName: 'Gus', email: 'gus@work.example', phone: '856-555-0202' }))
    const [ca, cb] = [await customerOf(a), await customerOf(b)]
    expect(ca).not.toBe(cb)
    const { id: both } = await one.inquiries.add(lead({ firstName: 'Gus', email: 'gus@example.com', phone: '856.555.0202' }))
    const kept = Math.min(ca!, cb!)
    expect([await customerOf(a), await customerOf(b), await customerOf(both)]).toEqual([kept, kept, kept])
    expect(await db.sql`select id from customers where id = ${Math.max(ca!, cb!)}`).toHaveLength(0)
    const record = await one.staff.customers.get(kept)
    expect(record.leads.map((l) => l.id)).toEqual([both, b, a])
    expect(record.emails).toEqual(['gus@example.com', 'gus@work.example'])
    expect(record.phones.map((p) => p.key)).toEqual(['8565550101', '8565550202'])
    expect(record.timeline.filter((e) => e.kind === 'arrived').map((e) => e.leadId)).toEqual([both, b, a])
  })

  it('keeps spam out of every customer until "Not spam" lets it in', async () => {
    const { id } = await one.inquiries.add(lead({ firstName: 'Bot', email: 'dana@example.com', website: 'https://spam.example' }))
    expect(await customerOf(id)).toBeNull()
    await one.staff.spam.notSpam({ id: staff.alice!, name: 'alice' }, id)
    expect(await customerOf(id)).toBe(await customerOf((await db.sql<{ id: number }[]>`select id from contact_inquiries where email = 'dana@example.com' order by id limit 1`)[0]!.id))
  })
})

describe.each(backends)('the customers migration on %s', (backend) => {
  let db: TestDatabase
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    const all = await readMigrations()
    await migrate(db.sql, all.filter((m) => m.version < '0036'))
    const add = async (name: string, email: string, phone: string | null, spam = false) => {
      const [row] = await db.sql<{ id: number }[]>`
        insert into contact_inquiries (first_name, last_name, email, phone, spam_reason)
        values (${name}, 'Lead', ${email}, ${phone}, ${spam ? 'honeypot' : null}) returning id
      `
      ids[name] = row!.id
    }
    // a and c share nothing directly; b links them (a's email, c's phone): one person.
    await add('a', 'ann@example.com', '609-555-0100')
    await add('b', 'ANN@example.com', '(732) 555-0199')
    await add('c', 'ann@work.example', '+1 732 555 0199')
    await add('d', 'dee@example.com', '609-555-0100 ext. 4')
    await add('e', 'eve@example.com', null)
    await add('spam', 'eve@example.com', null, true)
    // The old rule: a note set the first response; a status change did too.
    await db.sql`update contact_inquiries set first_response_at = now() - interval '1 hour' where id in ${db.sql([ids.a!, ids.e!])}`
    await db.sql`insert into audit_log (actor, entity, entity_id, action, field, before, after, at) values ('maria', 'lead', ${String(ids.a)}, 'update', 'status', '"new"', '"contacted"', now() - interval '50 minutes')`
    await db.sql`insert into audit_log (actor, entity, entity_id, action, field, after) values ('maria', 'lead', ${String(ids.e)}, 'create', 'note', '"Called"')`
    await migrate(db.sql, all.filter((m) => m.version >= '0036'))
  })
  afterAll(() => db?.close())

  it('joins every stored lead to its customer: connected by shared emails and phones, spam left out', async () => {
    const rows = await db.sql<{ id: number; customerId: number | null }[]>`select id, customer_id from contact_inquiries order by id`
    const of = (name: string) => rows.find((r) => r.id === ids[name])!.customerId
    expect(of('a')).toBe(ids.a)
    expect([of('b'), of('c'), of('d')]).toEqual([ids.a, ids.a, ids.a])
    expect(of('e')).toBe(ids.e)
    expect(of('spam')).toBeNull()
    // New customers are numbered after them.
    const [next] = await db.sql<{ id: number }[]>`insert into customers default values returning id`
    expect(next!.id).toBeGreaterThan(ids.e!)
  })

  it('keeps a first response only where a status change recorded one, at its time', async () => {
    const rows = await db.sql<{ id: number; firstResponseAt: Date | null }[]>`select id, first_response_at from contact_inquiries where id in ${db.sql([ids.a!, ids.e!])} order by id`
    expect(rows[0]!.firstResponseAt).not.toBeNull()
    expect(rows[1]!.firstResponseAt).toBeNull()
  })
})
