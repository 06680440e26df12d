import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Island, type IslandHost, IslandHostProvider } from './island.tsx'
import { LoadError } from './load-error.tsx'

const host = (placed: { name: string; props: object }[]): IslandHost => ({
  pageUrl: '/inventory?make=denago',
  place(name, props) {
    placed.push({ name, props })
    return <div data-testid="marker" />
  },
})

describe('Island', () => {
  it('renders its part as it is where no host renders the page (an embed)', () => {
    render(
      <Island name="gallery" props={{ title: 'x' }}>
        <p>the part</p>
      </Island>,
    )
    expect(screen.getByText('the part')).toBeTruthy()
  })

  it('leaves the part to the host on the dealer\'s site, with its name and props', () => {
    const placed: { name: string; props: object }[] = []
    render(
      <IslandHostProvider value={host(placed)}>
        <Island name="gallery" props={{ title: 'x' }}>
          <p>the part</p>
        </Island>
      </IslandHostProvider>,
    )
    expect(screen.queryByText('the part')).toBeNull()
    expect(screen.getByTestId('marker')).toBeTruthy()
    expect(placed).toEqual([{ name: 'gallery', props: { title: 'x' } }])
  })
})

describe('LoadError', () => {
  it('offers Try again as a link that loads the page again where the page stays HTML', () => {
    render(
      <IslandHostProvider value={host([])}>
        <LoadError what="the featured golf carts" onRetry={() => {}} />
      </IslandHostProvider>,
    )
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/inventory?make=denago')
    expect(screen.queryByRole('button')).toBeNull()
  })
})
