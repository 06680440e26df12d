import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeServices, seedCarts } from '../../tests/support/fake-services.ts'
import { renderWithApi } from '../../tests/support/render-with-api.tsx'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { VehicleDetail } from './vehicle-detail.tsx'

const links = {
  homeHref: '/',
  inventoryHref: '/inventory',
  contactHref: (slug?: string) => (slug ? `/contact?cart=${slug}` : '/contact'),
  vehicleHref: (slug: string) => `/vehicle/${slug}`,
  privacyHref: '/privacy-policy',
}
const groupRows = (title: string) => {
  const group = screen.getByRole('heading', { name: title }).parentElement!
  return Array.from(group.querySelectorAll('.gc-spec-row')).map((row) => [
    row.querySelector('dt')!.textContent,
    row.querySelector('dd')!.textContent,
  ])
}

describe('VehicleDetail', () => {
  it('shows a skeleton while loading', () => {
    const services = fakeServices()
    services.hold()
    const { container } = renderWithApi(<VehicleDetail slug="2025-evolution-d6-max-gt4" {...links} />, services)
    expect(container.querySelector('.gc-vehicle--skeleton')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('Loading golf cart')
  })

  it('shows the cart with breadcrumb, price and the four highlights, and no badge when nothing tells it apart', async () => {
    renderWithApi(<VehicleDetail slug="2025-evolution-d6-max-gt4" {...links} />)
    expect(await screen.findByRole('heading', { level: 1, name: '2025 Evolution D6 Max GT4' })).toBeTruthy()
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    expect(crumbs.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/')
    expect(crumbs.getByRole('link', { name: 'Inventory' }).getAttribute('href')).toBe('/inventory')
    expect(crumbs.getByText('2025 Evolution D6 Max GT4').getAttribute('aria-current')).toBe('page')
    // A new cart in stock for months has nothing that tells it apart: no badge at all, as on its card.
    expect(document.querySelector('.gc-vehicle__summary .gc-badge')).toBeNull()
    expect(screen.getByText('$14,995')).toBeTruthy()
    const highlights = within(screen.getByRole('list', { name: 'Highlights' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent)
    expect(highlights).toEqual(['Top Speed19 mph', 'Range30-45 miles', 'Seating4 Passengers', 'BatteryLithium Ion'])
  })

  it('shows the badges its card shows: Just arrived, Used, On Hold beside Used', async () => {
    const carts = seedCarts()
    const [arrived, used] = carts.filter((c) => c.category === 'new').slice(0, 2) as [GolfCartDetail, GolfCartDetail]
    arrived.listedAt = new Date(Date.now() - 86_400_000).toISOString()
    Object.assign(used, { category: 'used', status: 'hold', available: false })
    const badges = () => [...document.querySelectorAll('.gc-vehicle__summary .gc-badge')].map((b) => b.textContent)
    const first = renderWithApi(<VehicleDetail slug={arrived.slug} {...links} />, fakeServices(carts))
    await screen.findByRole('heading', { level: 1, name: arrived.title })
    expect(badges()).toEqual(['Just arrived'])
    first.unmount()
    renderWithApi(<VehicleDetail slug={used.slug} {...links} />, fakeServices(carts))
    await screen.findByRole('heading', { level: 1, name: used.title })
    expect(badges()).toEqual(['On Hold', 'Used'])
  })

  it('lists the three specification groups, always In Stock', async () => {
    renderWithApi(<VehicleDetail slug="2025-denago-ev-rover-xl6" {...links} />)
    await screen.findByRole('heading', { name: 'Specifications' })
    expect(groupRows('Performance')).toEqual([
      ['Top Speed', '25 mph'],
      ['Range', '40-60 miles'],
      ['Charging Time', '6-8 hours'],
      ['Motor Type', 'AC Motor'],
      ['Battery Type', 'Lithium Ion'],
    ])
    expect(groupRows('Dimensions')).toEqual([
      ['Length', '95 in'],
      ['Width', '48 in'],
      ['Height', '74 in'],
      ['Wheelbase', '68 in'],
      ['Ground Clearance', '8 in'],
    ])
    expect(groupRows('Capacity')).toEqual([
      ['Seating', '6 Passengers'],
      ['Payload', '1,200 lbs'],
      ['Category', 'NEW'],
      ['Availability', 'In Stock'],
    ])
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['Electric Power', 'Safety First', 'Low Maintenance', 'Eco-Friendly', 'Specifications']),
    )
  })

  it('offers Get Quote, Call Now and the manufacturer page for a known model', async () => {
    renderWithApi(<VehicleDetail slug="2025-evolution-d5-maverick-2-2" {...links} />)
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getAllByRole('link', { name: 'Get Quote' })[0]!.getAttribute('href')).toBe(
      '/contact?cart=2025-evolution-d5-maverick-2-2',
    )
    expect(screen.getByRole('link', { name: /Call Now/ }).getAttribute('href')).toBe('tel:+18885550100')
    const source = screen.getByRole('link', { name: /View Dealership Source/ })
    expect(source.getAttribute('href')).toBe('https://evolutionevs.com/d5-maverick-2-2')
    expect(source.getAttribute('rel')).toBe('noopener noreferrer')
  })

  it('shows no dealership source for a model the lookup does not know', async () => {
    const [cart] = seedCarts(1)
    const unknown = { ...cart!, id: 99, slug: 'club-car-onward', title: 'Club Car Onward' }
    renderWithApi(<VehicleDetail slug="club-car-onward" {...links} />, fakeServices([unknown]))
    await screen.findByRole('heading', { level: 1, name: 'Club Car Onward' })
    expect(screen.queryByRole('link', { name: /View Dealership Source/ })).toBeNull()
  })

  it('finds the cart by the alternative slug reading', async () => {
    renderWithApi(<VehicleDetail slug="2025-evolution-d5-maverick-22" {...links} />)
    expect(await screen.findByRole('heading', { level: 1, name: '2025 Evolution D5 Maverick 2+2' })).toBeTruthy()
  })

  it('says Vehicle Not Found with a way back for an unknown slug', async () => {
    renderWithApi(<VehicleDetail slug="no-such-cart" {...links} />)
    expect(await screen.findByRole('heading', { name: 'Vehicle Not Found' })).toBeTruthy()
    expect(screen.getByText("The vehicle you're looking for doesn't exist or has been removed.")).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to Inventory' }).getAttribute('href')).toBe('/inventory')
  })

  it('offers a retry, not Not Found, when the server fails', async () => {
    const services = fakeServices()
    services.failWith(new Error('down'))
    renderWithApi(<VehicleDetail slug="2025-evolution-d6-max-gt4" {...links} />, services)
    expect(await screen.findByText(/We couldn't load this golf cart/)).toBeTruthy()
    expect(screen.queryByText('Vehicle Not Found')).toBeNull()
    services.failWith(undefined)
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('2025 Evolution D6 Max GT4'))
  })

  it('says a sold cart is sold, in its status and its Availability, and offers similar carts', async () => {
    const carts = seedCarts()
    const sold = carts.find((c) => c.slug === '2025-evolution-d6-max-gt4')!
    sold.status = 'sold'
    sold.available = false
    renderWithApi(<VehicleDetail slug={sold.slug} {...links} />, fakeServices(carts))
    expect(await screen.findByText(/This cart has been sold/)).toBeTruthy()
    expect(screen.getAllByText('Sold').some((el) => el.classList.contains('gc-badge--sold'))).toBe(true)
    expect(groupRows('Capacity')).toContainEqual(['Availability', 'Sold'])
    const similar = await screen.findByRole('heading', { name: 'Similar Golf Carts' })
    const cards = within(similar.parentElement!).getAllByRole('link', { name: /View Details/ })
    expect(cards).toHaveLength(3)
    expect(cards.map((a) => a.getAttribute('href'))).not.toContain(`/vehicle/${sold.slug}`)
    // A quote on a similar cart, beside the similar carts, that still names the sold one: the
    // dealer knows what the shopper wanted.
    expect(screen.queryByRole('link', { name: 'Get Quote' })).toBeNull()
    const quotes = screen.getAllByRole('link', { name: 'Get a Quote on a Similar Cart' })
    expect(quotes.map((a) => a.getAttribute('href'))).toEqual([`/contact?cart=${sold.slug}`, `/contact?cart=${sold.slug}`])
  })

  it('marks a cart on hold, and shows stored seats and battery over the title\'s', async () => {
    const carts = seedCarts()
    const held = carts.find((c) => c.slug === '2025-evolution-d6-max-gt4')!
    Object.assign(held, { status: 'hold', available: false, seats: 6, battery: 'lead-acid' })
    renderWithApi(<VehicleDetail slug={held.slug} {...links} />, fakeServices(carts))
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getByText('On Hold', { selector: '.gc-badge' })).toBeTruthy()
    expect(groupRows('Capacity')).toContainEqual(['Availability', 'On Hold'])
    expect(groupRows('Capacity')).toContainEqual(['Seating', '6 Passengers'])
    expect(groupRows('Performance')).toContainEqual(['Battery Type', 'Lead Acid'])
    expect(screen.queryByRole('heading', { name: 'Similar Golf Carts' })).toBeNull()
  })

  it('offers "Tell me if the price drops", sending the cart and the address through the API', async () => {
    const services = fakeServices()
    renderWithApi(<VehicleDetail slug="2025-evolution-d6-max-gt4" {...links} />, services)
    await screen.findByRole('heading', { level: 1 })
    const cart = (await services.carts.bySlug('2025-evolution-d6-max-gt4'))!
    fireEvent.click(screen.getByText('Tell me if the price drops'))
    expect(screen.getByText(`If the price drops below $14,995, we'll tell you within a minute.`)).toBeTruthy()
    // No Web Push in an embed: a partner's page is another origin.
    expect(screen.queryByRole('button', { name: /in this browser/ })).toBeNull()
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not an address' } })
    fireEvent.click(screen.getByRole('button', { name: 'Email me' }))
    expect(await screen.findByText('Enter a valid email address, like name@example.com')).toBeTruthy()
    expect(services.watches.requested).toEqual([])
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'shopper@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Email me' }))
    expect((await screen.findByRole('status')).textContent).toBe('Check your email: follow the link in it to turn the alert on. Nothing is sent until you do.')
    expect(services.watches.requested).toEqual([{ email: 'shopper@example.com', subject: { cartId: cart.id } }])
  })

  it('offers no price alert for a sold cart', async () => {
    const carts = seedCarts()
    const sold = carts.find((c) => c.slug === '2025-evolution-d6-max-gt4')!
    sold.status = 'sold'
    renderWithApi(<VehicleDetail slug={sold.slug} {...links} />, fakeServices(carts))
    expect(await screen.findByText(/This cart has been sold/)).toBeTruthy()
    expect(screen.queryByText('Tell me if the price drops')).toBeNull()
  })
})
