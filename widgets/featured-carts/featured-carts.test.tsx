import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeServices } from '../../tests/support/fake-services.ts'
import { renderWithApi } from '../../tests/support/render-with-api.tsx'
import { FeaturedCarts } from './featured-carts.tsx'

const href = (slug: string) => `/vehicle/${slug}`

describe('FeaturedCarts', () => {
  it('shows three placeholders, then the first three featured carts', async () => {
    const services = fakeServices()
    const release = services.hold()
    const { container } = renderWithApi(<FeaturedCarts vehicleHref={href} />, services)
    expect(screen.getByRole('heading', { name: 'Featured Golf Carts' })).toBeTruthy()
    expect(container.querySelectorAll('.gc-card--skeleton')).toHaveLength(3)
    release()
    await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(3))
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      '2025 Denago EV Nomad XL',
      '2025 Denago EV Rover XL6',
      '2025 Evolution D6 Max GT4',
    ])
    expect(services.calls).toEqual([{ method: 'featured', input: 3 }])
  })

  it('honours another limit and a county title', async () => {
    renderWithApi(<FeaturedCarts vehicleHref={href} limit={5} title="Featured Golf Carts in Ocean" />)
    await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(5))
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Featured Golf Carts in Ocean')
  })

  it('links each card to its vehicle page and offers the full inventory', async () => {
    renderWithApi(<FeaturedCarts vehicleHref={href} inventoryHref="/inventory" />)
    const link = await screen.findByRole('link', { name: 'View Details for 2025 Denago EV Rover XL6' })
    expect(link.getAttribute('href')).toBe('/vehicle/2025-denago-ev-rover-xl6')
    expect(screen.getByText('$13,995')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'View Full Inventory' }).getAttribute('href')).toBe('/inventory')
  })

  it('offers a retry instead of an empty box when loading fails', async () => {
    const services = fakeServices()
    services.failWith(new Error('down'))
    renderWithApi(<FeaturedCarts vehicleHref={href} />, services)
    expect(await screen.findByText(/We couldn't load the featured golf carts/)).toBeTruthy()
    services.failWith(undefined)
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(3))
  })
})
