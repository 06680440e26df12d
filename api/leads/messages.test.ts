import { describe, expect, it } from 'vitest'
import type { StoredInquiry } from '../inquiries/inquiry-store.ts'
import { buildMessage, buildStaffAlert, greetingName, type MailSettings, pushPayload } from './messages.ts'

/**
 * Lead emails against what an attacker types (issue #26, point 7): stored leads may hold line
 * breaks, bidi and zero-width characters (from before the schema refused them, or written by
 * hand), and the visitor's confirmation goes to whatever address they typed.
 */
const settings: MailSettings = { from: 'site@dealer.example', leadsTo: ['sales@dealer.example'], adfTo: [], siteUrl: 'https://dealer.example', mark: '0123456789abcdef' }

const lead = (over: Partial<StoredInquiry>): StoredInquiry => ({
  id: 41,
  firstName: 'Dana',
  lastName: 'Whitaker',
  email: 'dana@example.com',
  phone: null,
  interest: null,
  message: null,
  sourceUrl: null,
  sourceLabel: null,
  cartSlug: null,
  cartTitle: null,
  cartPrice: null,
  cartStockNumber: null,
  cartVin: null,
  cartYear: null,
  cartMake: null,
  cartModel: null,
  createdAt: new Date('2026-11-21T15:04:00Z'),
  repeatOf: null,
  ...over,
})

/** Our own rows start at the margin with a label: a forged one would too. */
const labels = (text: string) => text.split('\n').filter((line) => /^[A-Z][a-z]+:/.test(line)).map((line) => line.split(':')[0])
const invisible = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/

describe('the dealer email', () => {
  it('links to the lead in the console, as an assignee\'s alert does', () => {
    const message = buildMessage('dealer-email', lead({ id: 7 }), settings)
    expect(message.to).toEqual(['sales@dealer.example'])
    expect(message.text.split('\n')[1]).toBe('Open it in the console: https://dealer.example/staff/leads/7')
    expect(message.html).toContain('<a href="https://dealer.example/staff/leads/7">Open lead #7 in the console</a>')
  })

  it("has a Message-ID of this installation's own: lead 1 of another installation, or of a database made anew, has another", () => {
    const here = buildMessage('dealer-email', lead({ id: 1 }), settings).messageId
    expect(here).toBe('<lead-1-dealer-email.0123456789abcdef@dealer.example>')
    expect(buildMessage('dealer-email', lead({ id: 1 }), settings).messageId).toBe(here)
    expect(buildMessage('dealer-email', lead({ id: 1 }), { ...settings, mark: 'fedcba9876543210' }).messageId).not.toBe(here)
  })

  it('cannot be given forged lines by a line break in a name, a phone, a source or a cart', () => {
    const forged = '\r\nEmail:    boss@dealer.example\r\nReceived: never'
    const message = buildMessage(
      'dealer-email',
      lead({ firstName: `Dana${forged}`, lastName: `W${forged}`, phone: `609${forged}`, sourceLabel: `ad${forged}`, cartSlug: `x${forged}` }),
      settings,
    )
    expect(labels(message.text)).toEqual(['Name', 'Email', 'Phone', 'Cart', 'Source', 'Received'])
    expect(message.text).toContain('Name:     Dana␍␊Email:    boss@dealer.example␍␊Received: never W␍␊Email:')
    expect(message.subject).not.toMatch(/[\r\n]/)
    expect(message.replyTo).toMatchObject({ name: expect.not.stringMatching(/[\r\n]/), address: 'dana@example.com' })
  })

  it('keeps a message\'s own lines, indented under its label, so none passes for a row of ours', () => {
    const message = buildMessage('dealer-email', lead({ message: 'Two carts please\nEmail:    boss@dealer.example\r\nPage:     https://evil.test' }), settings)
    expect(labels(message.text)).toEqual(['Name', 'Email', 'Message', 'Received'])
    expect(message.text).toContain('Message:  Two carts please\n          Email:    boss@dealer.example\n          Page:     https://evil.test\n')
    expect(message.html).toContain('Two carts please\nEmail:    boss@dealer.example\nPage:')
  })

  it('shows bidi and zero-width characters in the subject, names and body instead of letting them reorder or hide text', () => {
    const message = buildMessage('dealer-email', lead({ firstName: 'Dana\u202eexe.gpj', lastName: 'W\u200bhitaker', cartTitle: 'Cart\u2066 x' }), settings)
    for (const text of [message.subject, message.text, message.html!, (message.replyTo as { name: string }).name]) {
      expect(text).not.toMatch(invisible)
    }
    expect(message.subject).toContain('Dana<U+202E>exe.gpj W<U+200B>hitaker')
    expect(message.text).toContain('Cart<U+2066> x')
  })
})

describe('a staff alert, by email and by push', () => {
  it('shows line breaks and invisible characters in the name, the cart and the phone', () => {
    const hostile = lead({ firstName: 'Dana\r\nSubject: urgent', lastName: 'W\u202e', cartTitle: 'Cart\u200b', phone: '609\n555' })
    const alert = buildStaffAlert('staff-alert', hostile, ['devon@dealer.example'], settings)
    const push = JSON.parse(pushPayload('escalation-push', hostile)) as { title: string; body: string }
    for (const text of [alert.subject, alert.text, push.title, push.body]) {
      expect(text).not.toMatch(invisible)
      expect(text).not.toMatch(/\r/)
    }
    expect(alert.subject).toBe('New lead #41: Dana␍␊Subject: urgent W<U+202E>')
    expect(alert.text.split('\n')[0]).toContain('Call 609␊555')
  })
})

describe('the visitor confirmation', () => {
  it('greets by the first name alone, cleaned, and carries nothing else the visitor typed', () => {
    const typed = 'Visit evil dot test now'
    const message = buildMessage(
      'visitor-confirmation',
      lead({
        firstName: '  Da\u200bna\u202e\r\n ',
        lastName: typed,
        message: typed,
        phone: '609 555 0101',
        sourceLabel: typed,
        interest: 'service',
        service: { make: typed, model: typed, year: 2019, needs: ['battery'], preferredDays: [], pickup: false },
      }),
      settings,
    )
    expect(message.text).toMatch(/^Hi Dana,\n/)
    expect(message.text).not.toContain('evil')
    expect(message.text).not.toMatch(invisible)
    expect(message.to).toEqual(['dana@example.com'])
  })

  it('names a rental delivery by what we worked out, not the street and town typed', () => {
    const message = buildMessage(
      'visitor-confirmation',
      lead({
        interest: 'rentals',
        rental: {
          cartType: '4-seater', plan: 'daily', startDate: '2026-07-04', endDate: '2026-07-04', pickup: 'delivery', showroom: null,
          street: 'Click https://evil.test', town: 'Win a prize', zip: '08008', deliveryMiles: 12, deliveryFee: 40, price: 125, status: 'requested',
        },
      }),
      settings,
    )
    expect(message.text).toContain('Delivery:    To the address you gave, estimated fee $40')
    expect(message.text).not.toMatch(/evil|prize/)
  })

  it.each([
    ['Dana', 'Dana'],
    ['  Zoë  Ann ', 'Zoë Ann'],
    ['Ann\r\nBcc: boss@evil.test', 'there'],
    ['Mary\nJo', 'Mary Jo'],
    ['Go to https://evil.test', 'there'],
    ['evil.test', 'there'],
    ['win@evil.test', 'there'],
    ['\u200b\u202e', 'there'],
    ['A'.repeat(100), 'A'.repeat(40)],
  ])('greets %j as %j', (firstName, greeting) => {
    expect(greetingName(firstName)).toBe(greeting)
  })
})

describe('the alerts of a repeat and of a text in (issue #50)', () => {
  it('says a repeat is one, and of which lead', () => {
    const alert = buildStaffAlert('staff-alert', lead({ repeatOf: 17, phone: '609-555-0100' }), ['maria@dealer.example'], settings)
    expect(alert.subject).toBe('Repeat lead #41 (after #17): Dana Whitaker')
    expect(alert.text.split('\n')[0]).toBe('A repeat of lead #17: Dana wrote before. Call 609-555-0100 or open the lead to answer.')
    expect(JSON.parse(pushPayload('staff-push', lead({ repeatOf: 17 })))).toMatchObject({ title: 'Repeat lead #41 (after #17): Dana Whitaker' })
  })

  it('quotes a text in on one line, its control characters shown, and has a Message-ID of its own per text', () => {
    const text = { id: 9, body: 'Still there?\r\nSubject: forged\u202e' }
    const alert = buildStaffAlert('text-alert', lead({}), ['maria@dealer.example'], settings, text)
    expect(alert.subject).toBe('Text from Dana Whitaker (lead #41)')
    expect(alert.text.split('\n')[0]).toBe('“Still there? Subject: forged<U+202E>” Open the lead to answer.')
    expect(alert.messageId).not.toBe(buildStaffAlert('text-alert', lead({}), ['maria@dealer.example'], settings, { ...text, id: 10 }).messageId)
    expect(JSON.parse(pushPayload('text-push', lead({}), text))).toMatchObject({ title: 'Text from Dana Whitaker (lead #41)', url: '/staff/leads/41' })
  })
})
