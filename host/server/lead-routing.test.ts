import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ValidInquiry } from '../../domain/inquiry.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { settingsSections } from '../staff/settings.tsx'
import { parseStaffForm } from './staff-forms.ts'
import { parsePage } from '../../tests/support/html.ts'
import { signIn, staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Lead routing (issue #28, point 2; PRODUCT.md "lead routing"): the owner's settings say which
 * accounts take leads, per interest, and each new lead goes to the next of them in turn, chosen
 * in the transaction that stores it.
 */
const lead = (n: number, over: Partial<ValidInquiry> = {}): ValidInquiry => ({
  firstName: 'Dana',
  lastName: `Whitaker ${n}`,
  email: `dana${n}@example.com`,
  interest: 'denago',
  ...over,
})

describe('the lead routing section of the settings page', () => {
  const routing = settingsSections.find((s) => s.id === 'lead-routing')!

  it('reads the ticked accounts of each interest as lists of ids, by the settings\' schema, and nothing else', () => {
    const read = (body: string) => {
      const parsed = parseStaffForm('staff.settings.save', new URLSearchParams(body))
      return parsed.ok ? routing.read(parsed.value as Parameters<typeof routing.read>[0]) : parsed.refusal.posted
    }
    expect(read('section=lead-routing&leadRouting.denago=3&leadRouting.denago=1&leadRouting.other=2')).toEqual({ leadRouting: { denago: [1, 3], other: [2] } })
    expect(read('section=lead-routing')).toEqual({ leadRouting: {} })
    // Not an account's id, or not a pool: refused with the schema's sentence, the boxes as ticked.
    expect(read('section=lead-routing&leadRouting.denago=3&leadRouting.denago=x')).toEqual({
      values: { section: 'lead-routing' },
      lists: { 'leadRouting.denago': ['3', 'x'] },
      errors: { leadRouting: 'leadRouting lists account ids' },
    })
    expect(read('section=lead-routing&leadRouting.boats=3')).toMatchObject({ errors: { leadRouting: 'leadRouting must be an object' } })
  })
})

describe.each(backends)('lead routing on %s', (backend) => {
  let server: TestServer
  const accounts: Record<string, number> = {}
  const ownerOf = async (id: number) =>
    (await server.db.sql<{ ownerId: number | null }[]>`select owner_id from contact_inquiries where id = ${id}`)[0]!.ownerId
  const usernameOf = (id: number | null) => Object.entries(accounts).find(([, value]) => value === id)?.[0] ?? null

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    const store = server.runtime.services.staff.accounts
    for (const [name, role] of [['olive', 'owner'], ['ana', 'sales'], ['ben', 'sales'], ['cruz', 'sales'], ['dee', 'manager']] as const) {
      accounts[name] = (await store.add(name, staffPassword, { role })).id
    }
  })
  afterAll(() => server?.close())

  it('leaves every lead unassigned while nobody takes leads', async () => {
    const { id } = await server.runtime.services.inquiries.add(lead(0))
    expect(await ownerOf(id)).toBeNull()
  })

  it('is set on the owner\'s settings page, one group of accounts per interest', async () => {
    const cookie = (await signIn(server, 'olive')).cookie!
    const form = new URLSearchParams({ section: 'lead-routing' })
    for (const id of [accounts.ana, accounts.ben, accounts.cruz]) form.append('leadRouting.denago', String(id))
    form.append('leadRouting.service', String(accounts.dee))
    const saved = await fetch(`${server.url}${staffPaths.settings}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
      body: form,
    })
    expect(saved.status).toBe(303)
    expect((await server.runtime.services.staff.settings.get()).leadRouting).toEqual({
      denago: [accounts.ana, accounts.ben, accounts.cruz].sort((a, b) => a! - b!),
      service: [accounts.dee],
    })
    const page = parsePage(200, await (await fetch(`${server.url}${staffPaths.settings}`, { headers: { cookie } })).text())
    expect(page.all('.staff-routing legend')).toEqual(['Denago', 'Evolution', 'Swift EV', 'Rentals', 'Service', 'No interest given'])
    expect(page.document.querySelector<HTMLInputElement>(`#route-denago-${accounts.ben}`)?.checked).toBe(true)
    expect(page.document.querySelector<HTMLInputElement>(`#route-evolution-${accounts.ben}`)?.checked).toBe(false)
  })

  it('gives 30 leads arriving at once to three accounts strictly in turn: none twice in a row, none skipped', async () => {
    const ids = (await Promise.all(Array.from({ length: 30 }, (_, n) => server.runtime.services.inquiries.add(lead(100 + n))))).map((r) => r.id)
    const owners = await Promise.all(ids.map(ownerOf))
    const counts = Object.fromEntries(['ana', 'ben', 'cruz'].map((name) => [name, owners.filter((o) => o === accounts[name]).length]))
    expect(counts).toEqual({ ana: 10, ben: 10, cruz: 10 })
    // The order in which the turns were taken: the history's rows, written under the turn's lock.
    const taken = await server.db.sql<{ entityId: string; after: string }[]>`
      select entity_id, after from audit_log where actor = 'lead routing' and entity_id in ${server.db.sql(ids.map(String))} order by id
    `
    expect(taken.map((row) => row.entityId).sort()).toEqual(ids.map(String).sort())
    const turns = taken.map((row) => row.after)
    const start = ['ana', 'ben', 'cruz'].indexOf(turns[0]!)
    expect(turns).toEqual(Array.from({ length: 30 }, (_, n) => ['ana', 'ben', 'cruz'][(start + n) % 3]))
  })

  it('routes each interest in its own turn, passes over a disabled account, and leaves an interest nobody takes unassigned', async () => {
    const service = await server.runtime.services.inquiries.add(lead(200, { interest: 'service' }))
    expect(usernameOf(await ownerOf(service.id))).toBe('dee')
    const nobody = await server.runtime.services.inquiries.add(lead(201, { interest: 'evolution' }))
    expect(await ownerOf(nobody.id)).toBeNull()
    const next = usernameOf(await ownerOf((await server.runtime.services.inquiries.add(lead(202))).id))
    const afterNext = { ana: 'ben', ben: 'cruz', cruz: 'ana' }[next!]!
    await server.db.sql`update users set disabled = true where id = ${accounts[afterNext]!}`
    const skipped = usernameOf(await ownerOf((await server.runtime.services.inquiries.add(lead(203))).id))
    expect(skipped).toBe({ ana: 'ben', ben: 'cruz', cruz: 'ana' }[afterNext])
    await server.db.sql`update users set disabled = false where id = ${accounts[afterNext]!}`
  })

  it('routes a caught lead only when "Not spam" lets it in', async () => {
    const { id } = await server.runtime.services.inquiries.add(lead(300, { website: 'https://spam.example' }))
    expect(await ownerOf(id)).toBeNull()
    await server.runtime.services.staff.spam.notSpam({ id: accounts.olive!, name: 'olive' }, id)
    expect(['ana', 'ben', 'cruz']).toContain(usernameOf(await ownerOf(id)))
  })
})
