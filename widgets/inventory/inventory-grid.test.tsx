import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { showroomKeys, showrooms } from '../../domain/business.ts'
import { priceCeilings, seatChoices } from '../../domain/cart-query.ts'
import { batteries } from '../../domain/cart-values.ts'
import { fakeServices, seedCarts } from '../../tests/support/fake-services.ts'
import { renderWithApi } from '../../tests/support/render-with-api.tsx'
import { WatchFormOnOpen } from '../shared/watch-on-open.tsx'
import { WatchForm } from '../shared/watch-form.tsx'
import { InventoryGrid } from './inventory-grid.tsx'

const href = (slug: string) => `/vehicle/${slug}`
const cards = () => screen.queryAllByRole('article')

describe('InventoryGrid', () => {
  it('shows six placeholders while loading', async () => {
    const services = fakeServices()
    const release = services.hold()
    const { container } = renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} />, services)
    expect(container.querySelectorAll('.gc-card--skeleton')).toHaveLength(6)
    expect(screen.getByRole('status').textContent).toBe('Loading golf carts')
    release()
    await waitFor(() => expect(cards()).toHaveLength(24))
    expect(container.querySelectorAll('.gc-card--skeleton')).toHaveLength(0)
  })

  it('shows each cart with image, title, seats, range, battery, description, price, monthly price and a details link', async () => {
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} />)
    const card = (await screen.findByRole('heading', { name: '2025 Denago EV Nomad XL' })).closest('article')!
    const c = within(card)
    expect(c.getByRole('img', { name: '2025 Denago EV Nomad XL' }).getAttribute('src')).toBe(
      '/images/carts/2025-denago-ev-nomad-xl.svg',
    )
    expect(c.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['6 seats', '40-60 mi range', 'Lithium Ion'])
    expect(c.getByText('$12,495')).toBeTruthy()
    // The calculator's own payment at its starting terms: $12,495 / 36 months = $347.08, rounded up.
    expect(c.getByText('From $348/mo')).toBeTruthy()
    // New carts listed long ago carry no badge: NEW on every card would say nothing.
    expect(card.querySelector('.gc-badge')).toBeNull()
    expect(c.getByText(/seats six in comfort/)).toBeTruthy()
    expect(c.getByRole('link', { name: 'View Details for 2025 Denago EV Nomad XL' }).getAttribute('href')).toBe(
      '/vehicle/2025-denago-ev-nomad-xl',
    )
  })

  it('badges only what tells a cart apart: Used, Just arrived, On Hold', async () => {
    const [used, arrived, held, plain] = seedCarts(4)
    const carts = [
      { ...used!, category: 'used' },
      { ...arrived!, listedAt: new Date(Date.now() - 3 * 86_400_000).toISOString() },
      { ...held!, status: 'hold' as const },
      plain!,
    ]
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} />, fakeServices(carts))
    await waitFor(() => expect(cards()).toHaveLength(4))
    const badges = (title: string) =>
      [...screen.getByRole('heading', { name: title }).closest('article')!.querySelectorAll('.gc-badge')].map((b) => b.textContent)
    expect(badges(used!.title)).toEqual(['Used'])
    expect(badges(arrived!.title)).toEqual(['Just arrived'])
    expect(badges(held!.title)).toEqual(['On Hold'])
    expect(badges(plain!.title)).toEqual([])
  })

  it('says so when a category has no carts', async () => {
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} search={{ category: 'used' }} />)
    expect(await screen.findByText('No golf carts found in this category.')).toBeTruthy()
  })

  it('loads every cart for All Categories and one category when chosen', async () => {
    const services = fakeServices()
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} />, services)
    await waitFor(() => expect(cards()).toHaveLength(24))
    expect(services.calls.at(-1)).toEqual({ method: 'list', input: { limit: 24, offset: 0, facets: true } })
    fireEvent.click(screen.getByRole('button', { name: /^New Golf Carts/ }))
    await waitFor(() => expect(services.calls.at(-1)).toEqual({ method: 'list', input: { category: 'new', limit: 24, offset: 0, facets: true } }))
    expect(screen.getByRole('button', { name: /^New Golf Carts/ }).getAttribute('aria-pressed')).toBe('true')
    // Clear-all goes back to the first list (answered from the query cache, so no new call).
    fireEvent.click(screen.getByRole('button', { name: 'Clear all filters' }))
    await waitFor(() => expect(screen.getByRole('button', { name: /^All Categories/ }).getAttribute('aria-pressed')).toBe('true'))
    expect(screen.queryByRole('button', { name: 'Clear all filters' })).toBeNull()
  })

  it('offers one value at a time for condition, showroom, seats, battery and price, "any" taking the filter off', async () => {
    // What the visitor's choices made of the search (a search met before is answered from the cache, unasked).
    const searches: unknown[] = []
    const choose = async (group: string, name: RegExp, expected: Record<string, unknown>) => {
      // A group's values arrive with the search's counts.
      fireEvent.click(await waitFor(() => within(screen.getByRole('group', { name: group })).getByRole('button', { name })))
      expect(searches.at(-1)).toEqual(expected)
      await waitFor(() => expect(within(screen.getByRole('group', { name: group })).getByRole('button', { name }).getAttribute('aria-pressed')).toBe('true'))
    }
    // The fake lists every cart; the counts are what offers a showroom or a battery (none: not offered).
    const services = fakeServices()
    const list = services.carts.list.bind(services.carts)
    const one = <V,>(values: readonly V[]) => values.map((value) => ({ value, count: 1 }))
    services.carts.list = async (query) => ({
      ...(await list(query)),
      facets: {
        category: one(['new']),
        make: [],
        seats: one(seatChoices),
        battery: one(batteries),
        streetLegal: 0,
        lifted: 0,
        location: one(showroomKeys),
        maxPrice: one(priceCeilings),
      },
    })
    renderWithApi(
      <InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} search={{ minPrice: 20_000 }} onSearchChange={(search) => searches.push(search)} />,
      services,
    )
    await waitFor(() => expect(cards().length).toBeGreaterThan(0))
    // A ceiling under the floor takes the floor away, which would otherwise leave nothing.
    await choose('Price', /^Under \$15,000/, { maxPrice: 15_000 })
    await choose('Price', /^Any price/, {})
    await choose('Seats', /^4\+ seats/, { seats: 4 })
    await choose('Seats', /^Any/, {})
    await choose('Battery', /^Lithium Ion/, { battery: 'lithium' })
    await choose('Battery', /^Any/, {})
    await choose('Condition', /^New Golf Carts/, { category: 'new' })
    await choose('Condition', /^All Categories/, {})
    const [showroom] = showrooms
    await choose('Location', new RegExp(`^${showroom!.name}`), { location: showroom!.id })
    await choose('Location', /^Any showroom/, {})
  })

  it('pages through a large inventory 24 at a time', async () => {
    const services = fakeServices(seedCarts(30))
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} />, services)
    await waitFor(() => expect(cards()).toHaveLength(24))
    expect(screen.getByText('Page 1 of 2')).toBeTruthy()
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Previous' }).disabled).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(cards()).toHaveLength(6))
    expect(screen.getByRole('status').textContent).toBe('30 golf carts, 25 to 30 shown')
    expect(services.calls.at(-1)?.input).toEqual({ limit: 24, offset: 24, facets: true })
  })

  it('shows a clear message and a retry button when loading fails, and recovers', async () => {
    const services = fakeServices()
    services.failWith(new Error('database down'))
    const errors: string[] = []
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} onError={(m) => errors.push(m)} />, services)
    expect((await screen.findByRole('alert')).textContent).toContain("We couldn't load the golf carts")
    // One message, the right one: nothing says the search found no carts.
    expect(screen.getByRole('status').textContent).toBe('')
    expect(screen.queryByText(/No golf carts/)).toBeNull()
    expect(errors[0]).toMatch(/^500: /)
    services.failWith(undefined)
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(cards()).toHaveLength(24))
  })

  it('follows a changed category prop', async () => {
    const services = fakeServices()
    const view = renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} search={{ category: 'new' }} />, services)
    await waitFor(() => expect(cards()).toHaveLength(24))
    view.rerender(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} search={{ category: 'used' }} />)
    expect(await screen.findByText('No golf carts found in this category.')).toBeTruthy()
  })

  it('keeps a partner\'s fixed filters, does not offer them, and asks no counts when the panel is hidden', async () => {
    const services = fakeServices()
    const view = renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} search={{ make: ['denago'], seats: 6 }} locked={['make', 'seats']} />, services)
    await waitFor(() => expect(services.calls.at(-1)?.input).toEqual({ make: ['denago'], seats: 6, limit: 24, offset: 0, facets: true }))
    expect(screen.queryByRole('group', { name: 'Seats' })).toBeNull()
    expect(screen.getByRole('group', { name: 'Battery' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Clear all filters' })).toBeNull()
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'nomad' } })
    fireEvent.submit(screen.getByRole('search'))
    await waitFor(() => expect(services.calls.at(-1)?.input).toEqual({ make: ['denago'], seats: 6, q: 'nomad', limit: 24, offset: 0, facets: true }))
    fireEvent.click(screen.getByRole('button', { name: 'Clear all filters' }))
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe(''))
    expect(screen.queryByRole('button', { name: 'Clear all filters' })).toBeNull()
    view.rerender(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} search={{ make: ['denago'] }} locked={['make']} filters={false} />)
    await waitFor(() => expect(services.calls.at(-1)?.input).toEqual({ make: ['denago'], limit: 24, offset: 0 }))
    expect(screen.queryByRole('search')).toBeNull()
  })

  it('reports which cart a visitor opens', async () => {
    const chosen: string[] = []
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} onVehicleSelect={(slug) => void chosen.push(slug)} />)
    fireEvent.click(await screen.findByRole('link', { name: 'View Details for 2025 Denago EV City' }))
    expect(chosen).toEqual(['2025-denago-ev-city'])
  })

  it('watches the search on screen, its filters and not its sort, through the API', async () => {
    const services = fakeServices()
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchForm} search={{ make: ['denago'], seats: 6, sort: 'price-asc' }} />, services)
    fireEvent.click(await screen.findByText('Tell me about new carts like these'))
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'search@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Email me' }))
    expect(await screen.findByText(/Check your email/)).toBeTruthy()
    expect(services.watches.requested).toEqual([{ email: 'search@example.com', subject: { query: { make: ['denago'], seats: 6 } } }])
  })

  it('in an embed, renders the alert\'s box closed and its form only once opened', async () => {
    const services = fakeServices()
    renderWithApi(<InventoryGrid vehicleHref={href} privacyHref="/privacy-policy" watchForm={WatchFormOnOpen} watch={{ checkOrigin: true }} search={{ make: ['denago'] }} />, services)
    const toggle = await screen.findByText('Tell me about new carts like these')
    expect(screen.queryByLabelText('Email')).toBeNull()
    fireEvent.click(toggle)
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'later@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Email me' }))
    expect(await screen.findByText(/Check your email/)).toBeTruthy()
    expect(services.watches.requested).toEqual([{ email: 'later@example.com', subject: { query: { make: ['denago'] } } }])
  })
})
