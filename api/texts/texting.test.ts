import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { atWallClock, wallClock } from '../../domain/business-hours.ts'
import { business } from '../../domain/business.ts'
import type { ValidInquiry } from '../../domain/inquiry.ts'
import { keywordReplies, textConsentWording } from '../../domain/texting.ts'
import { startPushService, type PushService } from '../../tests/support/push-service.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { freePort, startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { startTwilioStandIn, type TwilioStandIn } from '../../tests/support/twilio-stand-in.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'

/**
 * Replies by text and email, and texts in (issue #50; PRODUCT.md "replies from the console",
 * "texting", "consent to texts"), through a local Twilio (tests/support/twilio-stand-in.ts), a
 * local mail server and a local push service. The procedures are called in-process; Twilio's
 * webhooks over HTTP, where the status codes and the signature are the behaviour. The server's
 * clock is the test's: texting hours are read from it (a day ahead of the real one, so whatever
 * the outbox holds is due by it).
 */

/** A moment of New Jersey's clock `days` from today. */
function newJerseyAt(days: number, hour: number, minute = 0): Date {
  const day = wallClock(Date.now() + days * 86_400_000)
  return new Date(atWallClock(day.year, day.month, day.day, hour, minute))
}

/** The TwiML answer of one reply, as Twilio's library writes it (XML-escaped). */
const twiml = (reply: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${reply.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</Message></Response>`

const shopper = (over: Partial<ValidInquiry>): ValidInquiry => ({ firstName: 'Tess', lastName: 'Morgan', email: 'tess@example.com', ...over })

describe.each(backends)('replies and texts on %s', (backend) => {
  let twilio: TwilioStandIn
  let smtp: SmtpSink
  let push: PushService
  let server: TestServer
  let siteUrl: string
  let now = newJerseyAt(1, 10)
  let maria: ReturnType<typeof createCaller>
  let manager: ReturnType<typeof createCaller>

  beforeAll(async () => {
    ;[twilio, smtp, push] = await Promise.all([startTwilioStandIn(), startSmtpSink(), startPushService()])
    const port = await freePort()
    siteUrl = `http://127.0.0.1:${port}`
    server = await startTestServer(
      backend,
      {
        ...twilio.env,
        SITE_URL: siteUrl,
        SMTP_URL: smtp.url,
        LEADS_TO: 'leads@dealer.example',
        LEADS_FROM: 'website@dealer.example',
        OUTBOX_POLL_MS: '100',
        OUTBOX_RETRY_BASE_MS: '100',
        PUSH_SERVICE_HOSTS: push.host,
        LOG_LEVEL: 'silent',
      },
      { port, pushAgent: push.agent, clock: () => now },
    )
    const { accounts, sessions, settings } = server.runtime.services.staff
    const callerOf = async (username: string, role: 'sales' | 'manager') => {
      const user = await accounts.add(username, staffPassword, { role, email: `${username}@dealer.example` })
      const { token } = await sessions.start(user, {})
      return { user, caller: createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true })) }
    }
    const sales = await callerOf('maria', 'sales')
    maria = sales.caller
    manager = (await callerOf('mike', 'manager')).caller
    await settings.save({ id: null, name: 'test' }, { leadRouting: { other: [sales.user.id] } })
    await maria.staff.alerts.subscribe(push.subscribe('maria-phone'))
  })
  afterAll(async () => {
    await server?.close()
    await Promise.all([twilio?.stop(), smtp?.stop(), push?.stop()])
  })

  const timelineOf = async (id: number) => (await maria.staff.lead.get({ id })).timeline
  const texts = async (id: number) => (await timelineOf(id)).filter((e) => e.kind === 'message' && e.channel === 'sms')

  it('stores a ticked box as consent for the number, in the words shown and with its time', async () => {
    const before = Date.now()
    const { id } = await server.runtime.services.inquiries.add(shopper({ phone: '(609) 555-0142', textConsent: true }))
    const [consent] = await server.db.sql<{ phoneKey: string; given: boolean; wording: string; at: Date; inquiryId: number }[]>`
      select phone_key, given, wording, at, inquiry_id from text_consents where inquiry_id = ${id}
    `
    expect(consent).toMatchObject({ phoneKey: '6095550142', given: true, wording: textConsentWording })
    expect(consent!.at.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(textConsentWording).toMatch(/Text me about this request\..*Msg & data rates may apply\..*Reply STOP to opt out, HELP for help\./)
    // The REST API takes it as `textConsent: true`, and refuses it without a phone, beside the phone.
    const post = (body: Record<string, unknown>) =>
      fetch(`${siteUrl}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const rest = await post({ firstName: 'Rae', lastName: 'Ng', email: 'rae@example.com', phone: '+1 609 555 0188', textConsent: true })
    expect(rest.status).toBe(201)
    const { id: restId } = (await rest.json()) as { id: number }
    expect(await server.db.sql`select phone_key, given from text_consents where inquiry_id = ${restId}`).toEqual([{ phoneKey: '6095550188', given: true }])
    const noPhone = await post({ firstName: 'Rae', lastName: 'Ng', email: 'rae@example.com', textConsent: true })
    expect(noPhone.status).toBe(400)
    expect(((await noPhone.json()) as { issues: unknown[] }).issues).toEqual([{ path: 'phone', message: 'Enter the phone number to text, or untick “Text me about this request”' }])
  })

  it('texts the shopper from the dealer’s number with a status callback, and that is the lead’s first response', async () => {
    now = newJerseyAt(1, 10)
    const { id } = await server.runtime.services.inquiries.add(shopper({ phone: '609.555.0142', textConsent: true }))
    expect((await maria.staff.lead.get({ id })).texting).toEqual({ available: true })
    const sent = twilio.sent.length
    const receipt = await maria.staff.lead.reply({ id, channel: 'sms', body: 'Hi Tess, the cart is here. Come by at 3?' })
    expect(receipt).toMatchObject({ channel: 'sms', status: 'queued', waitsUntil: null, notice: 'Text to (609) 555-0142 is on its way.' })
    await expect.poll(() => twilio.sent.length, { timeout: 10_000 }).toBe(sent + 1)
    expect(twilio.sent.at(-1)).toMatchObject({
      to: '+16095550142',
      from: twilio.from,
      body: 'Hi Tess, the cart is here. Come by at 3?',
      statusCallback: `${siteUrl}/webhooks/twilio/status`,
    })
    const lead = await maria.staff.lead.get({ id })
    expect(Date.parse(lead.firstResponseAt!)).toBe(now.getTime())
    expect(lead.status).toBe('contacted')
    await expect.poll(async () => (await texts(id))[0], { timeout: 10_000 }).toMatchObject({ direction: 'out', who: 'maria', status: 'sent' })

    // Twilio says it was delivered: only a signed callback counts.
    const sid = twilio.sent.at(-1)!.sid
    const callback = { MessageSid: sid, MessageStatus: 'delivered', AccountSid: twilio.accountSid, To: '+16095550142', From: twilio.from }
    expect((await twilio.post(`${siteUrl}/webhooks/twilio/status`, callback, { signed: false })).status).toBe(403)
    expect((await twilio.post(`${siteUrl}/webhooks/twilio/status`, callback)).status).toBe(204)
    expect((await texts(id))[0]).toMatchObject({ status: 'delivered' })
    // A late "sent" never moves it back.
    await twilio.post(`${siteUrl}/webhooks/twilio/status`, { ...callback, MessageStatus: 'sent' })
    expect((await texts(id))[0]).toMatchObject({ status: 'delivered' })
  })

  it('refuses an unsigned text in with 403; a signed one joins the customer’s latest lead and alerts its owner by push and email', async () => {
    const { id } = await server.runtime.services.inquiries.add(shopper({ firstName: 'Ines', email: 'ines@example.com', phone: '732-555-0190' }))
    const url = `${siteUrl}/webhooks/twilio/sms`
    const unsigned = await twilio.textIn(url, '+17325550190', 'Is it still available?', { signed: false })
    expect(unsigned.status).toBe(403)
    expect(await texts(id)).toEqual([])
    // Signed for another address: not ours.
    const elsewhere = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.sign(`${siteUrl}/elsewhere`, { From: '+17325550190', Body: 'x', MessageSid: 'SMx' }) },
      body: new URLSearchParams({ From: '+17325550190', Body: 'x', MessageSid: 'SMx' }),
    })
    expect(elsewhere.status).toBe(403)

    // How soon the alert comes is measured by `npm run bench -- texts` (docs/BENCHMARKS.md), not here.
    const answer = await twilio.textIn(url, '+17325550190', 'Is it still available?')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^text\/xml/)
    expect(await answer.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>')
    expect(await texts(id)).toEqual([expect.objectContaining({ direction: 'in', body: 'Is it still available?', who: 'Ines Morgan', status: 'received' })])
    const title = `Text from Ines Morgan (lead #${id})`
    await expect.poll(() => push.received.find((p) => p.payload.title === title), { timeout: 10_000 }).toBeDefined()
    await expect.poll(() => smtp.messages.find((m) => m.subject === title), { timeout: 10_000 }).toBeDefined()
    const pushed = push.received.find((p) => p.payload.title === title)!
    expect(pushed.payload).toMatchObject({ url: `/staff/leads/${id}`, body: '“Is it still available?” Open the lead to answer.' })
    expect(smtp.messages.find((m) => m.subject === title)!.to?.map((t) => t.address)).toEqual(['maria@dealer.example'])
  })

  it('ends consent at STOP, confirmed once; a text is then refused with a sentence; START renews it; HELP is answered', async () => {
    const { id } = await server.runtime.services.inquiries.add(shopper({ firstName: 'Sol', email: 'sol@example.com', phone: '+1 856 555 0111', textConsent: true }))
    const url = `${siteUrl}/webhooks/twilio/sms`
    const stop = await (await twilio.textIn(url, '+18565550111', 'Stop')).text()
    expect(stop).toBe(twiml(keywordReplies.stop))
    expect(await (await twilio.textIn(url, '+18565550111', 'UNSUBSCRIBE')).text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>')

    const lead = await maria.staff.lead.get({ id })
    expect(lead.texting).toEqual({ available: false, reason: expect.stringMatching(/^\(856\) 555-0111 opted out of texts on .* \(Texted “Stop”\): no texts until they text START\. Call or email instead\.$/) })
    const sent = twilio.sent.length
    await expect(maria.staff.lead.reply({ id, channel: 'sms', body: 'Still interested?' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: lead.texting.reason,
    })

    const help = await (await twilio.textIn(url, '+18565550111', 'help')).text()
    expect(help).toBe(twiml(keywordReplies.help))
    expect(keywordReplies.help).toContain(business.tollFree.display)
    expect(keywordReplies.help).toMatch(new RegExp(`^${business.name}`))
    expect(await (await twilio.textIn(url, '+18565550111', 'START')).text()).toBe(twiml(keywordReplies.start))
    await maria.staff.lead.reply({ id, channel: 'sms', body: 'Welcome back!' })
    await expect.poll(() => twilio.sent.length, { timeout: 10_000 }).toBe(sent + 1)
    expect(twilio.sent.at(-1)!.body).toBe('Welcome back!')
  })

  it('holds a text written at night until 08:00 New Jersey time, and says so', async () => {
    const { id } = await server.runtime.services.inquiries.add(shopper({ firstName: 'Nia', email: 'nia@example.com', phone: '609-555-0177', textConsent: true }))
    now = newJerseyAt(1, 22, 30)
    const eight = newJerseyAt(2, 8)
    const sent = twilio.sent.length
    // The lead's page is told before anything is written: a text now waits until 08:00.
    expect((await maria.staff.lead.get({ id })).texting).toEqual({ available: true, waitsUntil: eight.toISOString() })
    const receipt = await maria.staff.lead.reply({ id, channel: 'sms', body: 'Good news about your cart' })
    expect(receipt).toMatchObject({ status: 'waiting', waitsUntil: eight.toISOString() })
    expect(receipt.notice).toMatch(/^Text to \(609\) 555-0177 saved: it goes at 8:00 AM \w+day, New Jersey time \(no texts between 9 PM and 8 AM\)\.$/)
    expect((await texts(id))[0]).toMatchObject({ status: 'waiting', waitsUntil: eight.toISOString() })

    now = new Date(eight.getTime() - 60_000)
    await server.runtime.worker!.checkNow()
    expect(twilio.sent.length).toBe(sent)

    now = eight
    await server.runtime.worker!.checkNow()
    await expect.poll(() => twilio.sent.length, { timeout: 10_000 }).toBe(sent + 1)
    expect(twilio.sent.at(-1)).toMatchObject({ to: '+16095550177', body: 'Good news about your cart' })
    now = newJerseyAt(1, 10)
  })

  it('emails the shopper from the dealer in the salesperson’s name, answering to them: the first response; a note is none', async () => {
    const { id } = await server.runtime.services.inquiries.add(shopper({ firstName: 'Nora', lastName: 'Reyes', email: 'nora@example.com' }))
    await maria.staff.lead.addNote({ id, text: 'Asked about lifted carts' })
    expect((await maria.staff.lead.get({ id })).firstResponseAt).toBeNull()
    await expect(maria.staff.lead.reply({ id, channel: 'sms', body: 'Hi' })).rejects.toMatchObject({
      message: 'Nora gave no phone number that can be texted: email them instead.',
    })

    const receipt = await maria.staff.lead.reply({ id, channel: 'email', body: 'Hi Nora,\nWe have two lifted carts in stock.' })
    expect(receipt).toMatchObject({ channel: 'email', status: 'queued', notice: 'Email to nora@example.com is on its way.' })
    const email = await expect
      .poll(() => smtp.messages.find((m) => m.to?.some((t) => t.address === 'nora@example.com')), { timeout: 10_000 })
      .toBeDefined()
      .then(() => smtp.messages.find((m) => m.to?.some((t) => t.address === 'nora@example.com'))!)
    expect(email.from).toEqual({ name: `maria at ${business.name}`, address: 'website@dealer.example' })
    expect(email.replyTo).toEqual([{ name: 'maria', address: 'maria@dealer.example' }])
    expect(email.subject).toBe(`Re: your message - ${business.name}`)
    expect(email.text).toContain('Hi Nora,\nWe have two lifted carts in stock.')
    const lead = await maria.staff.lead.get({ id })
    expect(Date.parse(lead.firstResponseAt!)).toBe(now.getTime())
    expect(lead.timeline.map((e) => e.kind)).toEqual(['message', 'status', 'note', 'owner', 'arrived'])
    await expect.poll(async () => (await timelineOf(id)).find((e) => e.kind === 'message'), { timeout: 10_000 }).toMatchObject({ status: 'sent' })
  })

  it('keeps reply templates for managers, offers them to everyone, filled in for the lead', async () => {
    await expect(maria.staff.template.save({ name: 'Thanks', body: 'Hi {firstName}' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(manager.staff.template.save({ name: 'Bad', body: 'Hi {first_name}' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('{first_name} is not a placeholder'),
    })
    const saved = await manager.staff.template.save({ name: 'First answer', body: 'Hi {firstName}, this is {salesperson} at {dealer} about {cart}. Call {phone}.' })
    await expect(manager.staff.template.save({ name: 'first answer', body: 'x' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    expect((await maria.staff.template.list()).map((t) => t.name)).toContain('First answer')
    const { id } = await server.runtime.services.inquiries.add(shopper({ firstName: 'Cal', email: 'cal@example.com' }))
    expect(await maria.staff.template.render({ id: saved.id, leadId: id })).toEqual({
      body: `Hi Cal, this is maria at ${business.name} about a golf cart. Call ${business.tollFree.display}.`,
    })
    await manager.staff.template.remove({ id: saved.id })
    await expect(maria.staff.template.render({ id: saved.id, leadId: id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
