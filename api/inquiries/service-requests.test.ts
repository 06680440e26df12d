import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serviceCallToConfirm } from '../../domain/service-request.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { addStaff, signedInClient } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/** Service requests (issue #33): a lead with interest service, its cart and needs in the inbox and the emails. */
const to = (email: { to?: { address?: string }[] }) => email.to?.map((a) => a.address).join(',')

describe.each(backends)('service requests on %s', (backend) => {
  let smtp: SmtpSink
  let server: TestServer
  const submit = (body: object) =>
    fetch(`${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  beforeAll(async () => {
    smtp = await startSmtpSink()
    server = await startTestServer(backend, {
      SMTP_URL: smtp.url,
      LEADS_TO: 'leads@dealer.example',
      LEADS_FROM: 'website@dealer.example',
      ADF_TO: 'crm@dealer.example',
      CONFIRM_TO_VISITOR: 'true',
      OUTBOX_POLL_MS: '100',
      SITE_URL: 'https://carts.example',
      LOG_LEVEL: 'silent',
    })
    await addStaff(server)
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })

  it('stores a service request as a service lead the inbox shows with its cart, needs, days and pick-up, and emails it', async () => {
    const res = await submit({
      firstName: 'Walt',
      lastName: 'Kowalski',
      email: 'walt@example.com',
      phone: '732-555-0142',
      message: 'Squeaks when turning left.',
      service: { make: 'Club Car', model: 'Precedent', year: '2016', needs: ['battery', 'brakes', 'other'], preferredDays: ['Tuesday', 'Saturday'], pickup: true },
    })
    expect(res.status).toBe(201)
    const { id, interest } = (await res.json()) as { id: number; interest: string }
    expect(interest).toBe('service')

    const { client } = await signedInClient(server)
    const lead = await client.staff.lead.get.query({ id })
    expect(lead.interest).toBe('service')
    expect(lead.service).toEqual({ make: 'Club Car', model: 'Precedent', year: 2016, needs: ['battery', 'brakes', 'other'], preferredDays: ['Tuesday', 'Saturday'], pickup: true })
    expect((await client.staff.lead.list.query({ interest: 'service' })).leads.map((l) => l.id)).toContain(id)

    const messages = await smtp.waitFor(3)
    const dealer = messages.find((m) => to(m) === 'leads@dealer.example')!
    for (const line of ['2016 Club Car Precedent', 'Battery, Brakes, Other', 'Tuesday, Saturday', 'Yes: collect the cart and bring it back']) {
      expect(dealer.text).toContain(line)
    }
    expect(messages.find((m) => to(m) === 'crm@dealer.example')!.text).toContain('Needs: Battery, Brakes, Other')
    expect(messages.find((m) => to(m) === 'walt@example.com')!.text).toContain(serviceCallToConfirm)
  })

  it('refuses a request that names no need, or "other" without saying what, beside the fields', async () => {
    const base = { firstName: 'Walt', lastName: 'Kowalski', email: 'walt@example.com' }
    const none = await submit({ ...base, service: { make: 'EZ-GO', needs: [] } })
    expect(none.status).toBe(400)
    expect(((await none.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['service.needs'])
    const other = await submit({ ...base, service: { make: 'EZ-GO', needs: ['other'] } })
    expect(((await other.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['message'])
  })
})
