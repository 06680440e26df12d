import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeServices, seedCarts } from '../../tests/support/fake-services.ts'
import { renderWithApi } from '../../tests/support/render-with-api.tsx'
import { visitorFieldNames } from '../../domain/inquiry.ts'
import { ContactForm } from './contact-form.tsx'
import { textConsentDisclosure, textConsentLabel } from '../../domain/texting.ts'

const fill = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })
const value = (label: string | RegExp) => screen.getByLabelText<HTMLInputElement>(label).value
const submit = () => fireEvent.click(screen.getByRole('button', { name: /Send Message|Sending/ }))

function fillValid() {
  fill(/First Name/, ' Ann ')
  fill(/Last Name/, 'Lee')
  fill(/Email/, 'ann@example.com')
  fill(/Phone/, '(609) 555-0123')
  fill('Message', 'A 6 seater for July')
}

class IssuesError extends Error {
  constructor(readonly issues: { path: string[]; message: string }[]) {
    super('rejected')
  }
}

describe('ContactForm', () => {
  it('has the product\'s fields with their types', () => {
    renderWithApi(<ContactForm />, fakeServices(), { toasts: true })
    expect(screen.getByRole('heading', { name: 'Send Us a Message' })).toBeTruthy()
    expect(screen.getByLabelText(/Email/).getAttribute('type')).toBe('email')
    expect(screen.getByLabelText(/Phone/).getAttribute('type')).toBe('tel')
    expect(screen.getByLabelText('Message').getAttribute('rows')).toBe('4')
    const options = Array.from(screen.getByLabelText<HTMLSelectElement>(/interested/).options).map((o) => [o.value, o.text])
    expect(options).toEqual([
      ['', 'Select an option'],
      ['denago', 'Denago'],
      ['evolution', 'Evolution'],
      ['swift-ev', 'Swift EV'],
      ['rentals', 'Rentals'],
      ['service', 'Service'],
    ])
  })

  it('has a control, in the schema\'s order, for every field the inquiry schema takes from the visitor', () => {
    const { container } = renderWithApi(<ContactForm />, fakeServices(), { toasts: true })
    const controls = Array.from(container.querySelectorAll<HTMLInputElement>('input:not([type=hidden]), select, textarea'))
    const named = controls.map((c) => c.name).filter((name) => name !== 'website')
    expect(named).toEqual(visitorFieldNames)
  })

  it('says Sending... and is disabled while the message goes, then clears and thanks the visitor', async () => {
    const services = fakeServices()
    const release = services.hold()
    const receipts: unknown[] = []
    renderWithApi(<ContactForm interest="rentals" source="test-page" onSubmitted={(r) => receipts.push(r)} />, services, { toasts: true })
    fillValid()
    fill(/interested/, 'service')
    submit()
    const button = await screen.findByRole('button', { name: 'Sending...' })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    release()
    expect(await screen.findByText('Message sent successfully!')).toBeTruthy()
    expect(screen.getByText("We'll get back to you within 24 hours.")).toBeTruthy()
    expect([value(/First Name/), value(/Last Name/), value(/Email/), value(/Phone/), value('Message')]).toEqual(['', '', '', '', ''])
    expect(value(/interested/)).toBe('rentals')
    expect(services.inquiries.stored[0]).toMatchObject({
      firstName: 'Ann',
      interest: 'service',
      sourceLabel: 'test-page',
      message: 'A 6 seater for July',
    })
    expect(receipts).toEqual([{ id: 1, createdAt: expect.any(String), interest: 'service' }])
  })

  it('offers "Text me about this request" unticked with its disclosure, and sends the consent only when ticked', async () => {
    const services = fakeServices()
    renderWithApi(<ContactForm />, services, { toasts: true })
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: textConsentLabel })
    expect(box.checked).toBe(false)
    expect(box.getAttribute('aria-describedby')).toBeTruthy()
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(textConsentDisclosure)
    fillValid()
    submit()
    await screen.findByText('Message sent successfully!')
    expect(services.inquiries.stored[0]!.textConsent).toBeFalsy()
    fillValid()
    fireEvent.click(box)
    submit()
    await waitFor(() => expect(services.inquiries.stored).toHaveLength(2))
    expect(services.inquiries.stored[1]).toMatchObject({ phone: '(609) 555-0123', textConsent: true })
    // Sent, the form is clear again: the box too.
    await waitFor(() => expect(box.checked).toBe(false))
  })

  it('keeps everything typed and shows the error toast when sending fails', async () => {
    const services = fakeServices()
    services.failWith(new Error('disk full'))
    const errors: string[] = []
    renderWithApi(<ContactForm onError={(m) => errors.push(m)} />, services, { toasts: true })
    fillValid()
    fill(/interested/, 'denago')
    submit()
    expect(await screen.findByText('Error sending message')).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('500: Something went wrong on our side')
    expect([value(/First Name/), value(/Email/), value('Message'), value(/interested/)]).toEqual([
      ' Ann ',
      'ann@example.com',
      'A 6 seater for July',
      'denago',
    ])
    expect(errors[0]).toMatch(/^500: /)
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send Message' }).disabled).toBe(false)
  })

  it('shows problems beside their fields before sending anything', async () => {
    const services = fakeServices()
    renderWithApi(<ContactForm />, services, { toasts: true })
    fill(/Email/, 'not-an-email')
    submit()
    expect(await screen.findByText('First name is required')).toBeTruthy()
    expect(screen.getByText('Enter a valid email address, like name@example.com')).toBeTruthy()
    const first = screen.getByLabelText(/First Name/)
    expect(first.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(first.getAttribute('aria-describedby')!)?.textContent).toBe('First name is required')
    expect(document.activeElement).toBe(first)
    expect(services.calls).toEqual([])
  })

  it('names the cart of a quote, preselects its brand and sends its slug', async () => {
    const services = fakeServices()
    renderWithApi(<ContactForm cartSlug="2025-evolution-d6-max-gt4" />, services, { toasts: true })
    expect((await screen.findByText('2025 Evolution D6 Max GT4')).closest('p')?.textContent).toBe(
      'Quote for: 2025 Evolution D6 Max GT4 ($14,995)',
    )
    await waitFor(() => expect(value(/interested/)).toBe('evolution'))
    fillValid()
    submit()
    await screen.findByText('Message sent successfully!')
    expect(services.inquiries.stored[0]).toMatchObject({ cartSlug: '2025-evolution-d6-max-gt4', interest: 'evolution' })
    // SPEC: the chosen interest is cleared on success; the cart's brand does not come back.
    expect(value(/interested/)).toBe('')
    // The quote is sent: the cart leaves the form, so a second message is not filed under it.
    expect(screen.queryByText(/Quote for/)).toBeNull()
    fillValid()
    submit()
    await waitFor(() => expect(services.inquiries.stored).toHaveLength(2))
    expect(services.inquiries.stored[1]!.cartSlug).toBeUndefined()
  })

  it('says a quoted cart has been sold and offers to find a similar one', async () => {
    const carts = seedCarts()
    const cart = carts.find((c) => c.slug === '2025-evolution-d6-max-gt4')!
    Object.assign(cart, { status: 'sold', available: false, soldAt: new Date().toISOString() })
    const services = fakeServices(carts)
    renderWithApi(<ContactForm cartSlug={cart.slug} />, services, { toasts: true })
    expect((await screen.findByText('2025 Evolution D6 Max GT4')).closest('p')?.textContent).toBe(
      'The 2025 Evolution D6 Max GT4 has been sold. Tell us what you are looking for and we will find you a similar cart.',
    )
    expect(screen.queryByText(/Quote for/)).toBeNull()
    // The lead still names the sold cart: the dealer knows what the shopper wanted.
    fillValid()
    submit()
    await screen.findByText('Message sent successfully!')
    expect(services.inquiries.stored[0]).toMatchObject({ cartSlug: cart.slug })
  })

  it('shows the API field issues beside their fields, without a toast', async () => {
    const services = fakeServices()
    services.failWith(new IssuesError([{ path: ['email'], message: 'This address cannot receive mail' }]))
    renderWithApi(<ContactForm />, services, { toasts: true })
    fillValid()
    submit()
    expect(await screen.findByText('This address cannot receive mail')).toBeTruthy()
    expect(screen.getByLabelText(/Email/).getAttribute('aria-invalid')).toBe('true')
    expect(screen.queryByText('Error sending message')).toBeNull()
    expect(value(/Last Name/)).toBe('Lee')
  })
})
