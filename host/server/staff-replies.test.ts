import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { atWallClock, wallClock } from '../../domain/business-hours.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { followWithNotice, signIn, staffPassword } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { startTwilioStandIn, type TwilioStandIn } from '../../tests/support/twilio-stand-in.ts'

/**
 * The console's answer to the shopper without a script (issue #50; decision 0016): the lead page's
 * reply box (an email or a text, a template filled in by `?template=`, a call logged), "Send
 * text" disabled with the reason, the night's wait said before and after, the customer's record,
 * and the templates page for managers. What the replies do (the outbox, Twilio, consent, STOP) is
 * tested through the procedures in api/texts/texting.test.ts; here, the pages and their posts.
 */
let server: TestServer
let twilio: TwilioStandIn
let sales: string
let manager: string
/** The server's clock (texting hours): 10:00 in New Jersey unless a test says otherwise. */
let now: Date

function newJerseyAt(days: number, hour: number, minute = 0): Date {
  const day = wallClock(Date.now() + days * 86_400_000)
  return new Date(atWallClock(day.year, day.month, day.day, hour, minute))
}

beforeAll(async () => {
  now = newJerseyAt(1, 10)
  twilio = await startTwilioStandIn()
  server = await startTestServer('pglite', { ...twilio.env, LOG_LEVEL: 'silent' }, { site: true, clock: () => now })
  const { accounts } = server.runtime.services.staff
  await accounts.add('sam', staffPassword, { role: 'sales', email: 'sam@dealer.example' })
  await accounts.add('mona', staffPassword, { role: 'manager', email: 'mona@dealer.example' })
  sales = (await signIn(server, 'sam')).cookie!
  manager = (await signIn(server, 'mona')).cookie!
})
afterAll(async () => {
  await server?.close()
  await twilio?.stop()
})

const open = async (cookie: string, path: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: { cookie } })
  return parsePage(res.status, await res.text())
}
/** Where a post led, as a browser shows it: with the notice it left (a one-time cookie). */
const shown = async (cookie: string, answer: Response) => parsePage(200, (await followWithNotice(server, cookie, answer)).html)
const post = (cookie: string, path: string, fields: Record<string, string>) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
    body: new URLSearchParams(fields),
  })
const lead = async (over: { firstName: string; email: string; phone?: string; textConsent?: boolean }) =>
  (await server.runtime.services.inquiries.add({ lastName: 'Shopper', ...over })).id

describe('the reply box on a lead’s page', () => {
  it('sends an email from the form, says where it went, and shows it on the timeline as the first response', async () => {
    const id = await lead({ firstName: 'Nora', email: 'nora@example.com' })
    const before = await open(sales, leadPaths.lead(id))
    expect(before.text('#reply-heading')).toBe('Answer Nora')
    expect(before.text('.lead-page__received')).toContain('Not answered yet.')
    const res = await post(sales, leadPaths.lead(id), { action: 'reply', channel: 'email', body: 'Hi Nora, the cart is in. Saturday at 10?' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/staff/leads/${id}#reply`)
    const after = await shown(sales, res)
    expect(after.text('[role="status"].staff-alert')).toBe('Email to nora@example.com is on its way.')
    // The server's clock stands a day ahead (texting hours): the answer is a day after the lead.
    expect(after.text('.lead-page__received')).toMatch(/First response after \d+ hours/)
    const [newest] = after.all('[data-live="timeline"] .lead-timeline__item')
    expect(newest).toMatch(/^sam emailed nora@example\.com, .+Hi Nora, the cart is in\. Saturday at 10\?/)
  })

  it('keeps what was typed and says why beside the message when the reply is refused', async () => {
    const id = await lead({ firstName: 'Ike', email: 'ike@example.com' })
    const res = await post(sales, leadPaths.lead(id), { action: 'reply', channel: 'email', body: '   ' })
    expect(res.status).toBe(400)
    const page = parsePage(res.status, await res.text())
    expect(page.text('#reply-body-error')).toBe('Write the reply first')
    expect(page.document.querySelector('#reply-body')?.getAttribute('aria-invalid')).toBe('true')
    // A text to a number that never agreed: the sentence, with what was typed kept.
    const refused = await post(sales, leadPaths.lead(id), { action: 'reply', channel: 'sms', body: 'Hello there' })
    expect(refused.status).toBe(400)
    const again = parsePage(refused.status, await refused.text())
    expect(again.text('#reply [role="alert"]')).toBe('Ike gave no phone number that can be texted: email them instead.')
    expect(again.document.querySelector<HTMLTextAreaElement>('#reply-body')?.textContent).toBe('Hello there')
  })

  it('disables Send text with the reason: no consent, or texting not set up', async () => {
    const noConsent = await lead({ firstName: 'Pat', email: 'pat@example.com', phone: '(609) 555-0131' })
    const page = await open(sales, leadPaths.lead(noConsent))
    const button = page.document.querySelector('button[name="channel"][value="sms"]')
    expect(button?.hasAttribute('disabled')).toBe(true)
    expect(button?.getAttribute('aria-describedby')).toBe('reply-text-why')
    expect(page.text('#reply-text-why')).toBe('Pat has not agreed to texts at (609) 555-0131: call or email instead.')

    const bare = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
    try {
      await bare.runtime.services.staff.accounts.add('sam', staffPassword, { role: 'sales' })
      const cookie = (await signIn(bare, 'sam')).cookie!
      const { id } = await bare.runtime.services.inquiries.add({ firstName: 'Lu', lastName: 'Shopper', email: 'lu@example.com', phone: '609-555-0132', textConsent: true })
      const res = await fetch(`${bare.url}${leadPaths.lead(id)}`, { headers: { cookie } })
      const unset = parsePage(res.status, await res.text())
      expect(unset.document.querySelector('button[name="channel"][value="sms"]')?.hasAttribute('disabled')).toBe(true)
      expect(unset.text('#reply-text-why')).toMatch(/^Texting is not set up: the owner sets TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM/)
    } finally {
      await bare.close()
    }
  })

  it('says at night that a text waits until 08:00, before and after sending it', async () => {
    const id = await lead({ firstName: 'Nia', email: 'nia@example.com', phone: '609-555-0177', textConsent: true })
    now = newJerseyAt(1, 22, 30)
    try {
      const page = await open(sales, leadPaths.lead(id))
      expect(page.document.querySelector('button[name="channel"][value="sms"]')?.hasAttribute('disabled')).toBe(false)
      expect(page.text('#reply-text-why')).toMatch(/^No texts between 9 PM and 8 AM in New Jersey: a text written now waits until 8:00 AM \w+day\.$/)
      const res = await post(sales, leadPaths.lead(id), { action: 'reply', channel: 'sms', body: 'Good news about your cart' })
      expect(res.status).toBe(303)
      const after = await shown(sales, res)
      expect(after.text('[role="status"].staff-alert')).toMatch(/^Text to \(609\) 555-0177 saved: it goes at 8:00 AM \w+day, New Jersey time \(no texts between 9 PM and 8 AM\)\.$/)
      expect(after.all('[data-live="timeline"] .lead-timeline__item')[0]).toMatch(/Waits until 8:00 AM \w+day, New Jersey time/)
    } finally {
      now = newJerseyAt(1, 10)
    }
  })

  it('logs a call with its outcome and note: the first response; one not answered leaves the lead New', async () => {
    const id = await lead({ firstName: 'Cal', email: 'cal@example.com', phone: '(856) 555-0140' })
    const page = await open(sales, leadPaths.lead(id))
    expect(page.document.querySelector('#call a[href^="tel:"]')?.getAttribute('href')).toBe('tel:+18565550140')
    expect(page.all('#call .lead-call__outcome')).toEqual(['Reached them', 'Left a voicemail', 'No answer'])
    const missing = await post(sales, leadPaths.lead(id), { action: 'call', note: 'Rang twice' })
    expect(missing.status).toBe(400)
    const refused = parsePage(missing.status, await missing.text())
    expect(refused.text('#call-outcome-problem')).toBe('Say how the call went: reached, voicemail or no-answer')
    expect(refused.document.querySelector('#call-note')?.textContent).toBe('Rang twice')

    const none = await post(sales, leadPaths.lead(id), { action: 'call', outcome: 'no-answer', note: 'Rang twice' })
    expect(none.headers.get('location')).toBe(`/staff/leads/${id}#timeline`)
    let after = await shown(sales, none)
    expect(after.text('[role="status"].staff-alert')).toBe('Call logged.')
    expect(after.all('[data-live="timeline"] .lead-timeline__item')[0]).toMatch(/^sam called: no answer, .+Rang twice$/)
    expect(after.text('.lead-page__received')).toMatch(/First response after/)
    expect(after.text('[data-live="status-badge"]')).toBe('New')
    await post(sales, leadPaths.lead(id), { action: 'call', outcome: 'voicemail' })
    after = await open(sales, leadPaths.lead(id))
    expect(after.text('[data-live="status-badge"]')).toBe('Contacted')
    expect(after.all('[data-live="timeline"] .lead-timeline__item').filter((e) => e.startsWith('sam called'))).toEqual([
      expect.stringMatching(/^sam called: left a voicemail, /),
      expect.stringMatching(/^sam called: no answer, .+Rang twice$/),
    ])
  })
})

describe('templates', () => {
  it('are kept on their page by managers: placeholders explained, added, changed, refused beside the field, deleted after asking', async () => {
    const page = await open(manager, staffPaths.templates)
    expect(page.status).toBe(200)
    expect(page.all('.staff-nav a')).toContain('Templates')
    expect(page.all('.templates-placeholders dt')).toEqual(['{firstName}', '{cart}', '{salesperson}', '{dealer}', '{phone}'])

    const bad = await post(manager, staffPaths.templates, { action: 'save', name: 'Welcome', body: 'Hi {first_name}' })
    expect(bad.status).toBe(400)
    const refused = parsePage(bad.status, await bad.text())
    expect(refused.text('#template-body-error')).toMatch(/^\{first_name\} is not a placeholder: use \{firstName\}/)
    expect(refused.document.querySelector<HTMLInputElement>('#template-name')?.getAttribute('value')).toBe('Welcome')

    const added = await post(manager, staffPaths.templates, { action: 'save', name: 'Welcome', body: 'Hi {firstName}, {salesperson} here about {cart}.' })
    expect(added.status).toBe(303)
    const listed = await shown(manager, added)
    expect(listed.text('[role="status"].staff-alert')).toBe('“Welcome” is saved.')
    expect(listed.all('.templates-list h3')).toEqual(['Welcome'])
    const [template] = await server.runtime.services.staff.templates.list()

    const editing = await open(manager, `${staffPaths.templates}?edit=${template!.id}`)
    expect(editing.text('#template-form-title')).toBe('Change “Welcome”')
    const changed = await post(manager, staffPaths.templates, { action: 'save', id: String(template!.id), name: 'Welcome back', body: 'Hi {firstName}, {salesperson} here about {cart}.' })
    expect(changed.status).toBe(303)

    const unconfirmed = await post(manager, staffPaths.templates, { action: 'remove', id: String(template!.id) })
    expect(unconfirmed.headers.get('location')).toBe(`${staffPaths.templates}?remove=${template!.id}#confirm-remove`)
    const asking = await open(manager, unconfirmed.headers.get('location')!)
    expect(asking.text('#confirm-remove-title')).toBe('Delete the template “Welcome back”?')
    const removed = await post(manager, staffPaths.templates, { action: 'remove', id: String(template!.id), confirm: 'yes' })
    expect((await shown(manager, removed)).text('[role="status"].staff-alert')).toBe('“Welcome back” is deleted.')
    expect(await server.runtime.services.staff.templates.list()).toEqual([])
  })

  it('are offered in the reply box, filled in for the lead by “Use template”; sales use them but may not keep them', async () => {
    await server.runtime.services.staff.templates.save({ id: null, name: 'mona' }, { name: 'Thanks', body: 'Hi {firstName}, thanks for asking about {cart}. {salesperson}, {dealer}' })
    const [template] = await server.runtime.services.staff.templates.list()
    const id = await lead({ firstName: 'Tess', email: 'tess@example.com' })
    const page = await open(sales, leadPaths.lead(id))
    const option = page.document.querySelector(`#reply-template option[value="${template!.id}"]`)
    expect(option?.textContent).toBe('Thanks')
    expect(option?.getAttribute('data-body')).toBe('Hi Tess, thanks for asking about a golf cart. sam, Jersey Cart Co.')
    expect(page.document.querySelector('form[data-reply-templates]')?.getAttribute('method')).toBe('get')
    const used = await open(sales, `${leadPaths.lead(id)}?template=${template!.id}`)
    expect(used.document.querySelector('#reply-body')?.textContent).toBe('Hi Tess, thanks for asking about a golf cart. sam, Jersey Cart Co.')
    expect(page.all('.staff-nav a')).not.toContain('Templates')

    const refused = await fetch(`${server.url}${staffPaths.templates}`, { headers: { cookie: sales } })
    expect(refused.status).toBe(403)
    const post403 = await post(sales, staffPaths.templates, { action: 'save', name: 'Mine', body: 'Hi' })
    expect(post403.status).toBe(403)
  })
})

describe('the customer’s record', () => {
  it('is linked from the lead page and holds every lead of one person, their consent and one timeline', async () => {
    const first = await lead({ firstName: 'Rae', email: 'rae@example.com', phone: '(609) 555-0190', textConsent: true })
    const second = await lead({ firstName: 'Rae', email: 'RAE@example.com' })
    await post(sales, leadPaths.lead(first), { action: 'reply', channel: 'sms', body: 'Hi Rae, it is Sam.' })
    const page = await open(sales, leadPaths.lead(second))
    const link = page.document.querySelector('.lead-page__customer a')?.getAttribute('href')
    expect(link).toMatch(/^\/staff\/customers\/\d+$/)
    const customer = await open(sales, link!)
    expect(customer.status).toBe(200)
    expect(customer.text('h1')).toBe('Rae Shopper')
    expect(customer.all('.customer-leads__link')).toEqual([`Lead ${second}: no interest given`, `Lead ${first}: no interest given`])
    expect(customer.text('#customer-reach + .lead-facts')).toMatch(/rae@example\.com.*\(609\) 555-0190: agreed to texts on/)
    const timeline = customer.all('[data-live="timeline"] .lead-timeline__item')
    // The text, written on the server's clock (a day ahead), is the newest; the two arrivals are the oldest.
    expect(timeline[0]).toMatch(new RegExp(`^sam texted \\(609\\) 555-0190, .+, lead ${first}Hi Rae, it is Sam\\.`))
    expect(timeline.slice(-2)).toEqual([
      expect.stringMatching(new RegExp(`^Rae Shopper sent the request, .+, lead ${second}$`)),
      expect.stringMatching(new RegExp(`^Rae Shopper sent the request, .+, lead ${first}$`)),
    ])
    expect((await open(sales, '/staff/customers/999999')).status).toBe(404)
  })
})
