// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import { afterEach, describe, expect, it } from 'vitest'
import { counties } from '../../domain/counties.ts'
import { buildNjMap, LABEL_FONT_SIZE, PIN_HEAD, PIN_LABEL_FONT_SIZE } from '../../scripts/build/nj-map.ts'
import { NJ_MAP_TITLE, NjMap } from './nj-map.tsx'

const map = buildNjMap()
const countyHref = (value: string) => `/counties/${value}`

afterEach(() => cleanup())

describe('NjMap', () => {
  it('is a group named by its title', () => {
    render(<NjMap map={map} countyHref={countyHref} />)
    const group = screen.getByRole('group', { name: NJ_MAP_TITLE })
    expect(group.tagName.toLowerCase()).toBe('svg')
    expect(NJ_MAP_TITLE).toBe('Map of the 21 New Jersey counties we serve, with our showrooms')
    expect(group.getAttribute('viewBox')).toBe(map.viewBox)
  })

  it('links every county to its county page, named "<Name> County golf carts"', () => {
    render(<NjMap map={map} countyHref={countyHref} />)
    const links = screen.getAllByRole('link')
    expect(links).toHaveLength(21)
    expect(links.map((link) => link.getAttribute('href'))).toEqual(counties.map((c) => `/counties/${c.value}`))
    for (const county of counties) {
      const link = screen.getByRole('link', { name: `${county.name} County golf carts` })
      expect(link.getAttribute('href')).toBe(`/counties/${county.value}`)
      expect(link.querySelector('path')?.getAttribute('d')).toMatch(/^M/)
    }
    expect(screen.getByRole('link', { name: 'Cape May County golf carts' }).getAttribute('href')).toBe(
      '/counties/cape-may',
    )
  })

  it('pins the four showrooms with names and titles', () => {
    const { container } = render(<NjMap map={map} countyHref={countyHref} />)
    const pins = screen.getAllByRole('img', { name: /showroom$/ })
    expect(pins.map((pin) => pin.getAttribute('aria-label'))).toEqual([
      'Ocean View showroom',
      'Bayville showroom',
      'Waretown showroom',
      'Pleasantville showroom',
    ])
    const titles = [...container.querySelectorAll('.nj-map__pin > title')].map((t) => t.textContent)
    expect(titles).toEqual(['Ocean View showroom', 'Bayville showroom', 'Waretown showroom', 'Pleasantville showroom'])
  })

  it('hides the drawn labels from assistive technology', () => {
    const { container } = render(<NjMap map={map} countyHref={countyHref} />)
    const labels = container.querySelector('.nj-map__labels')
    expect(labels?.getAttribute('aria-hidden')).toBe('true')
    expect(within(labels as HTMLElement).getAllByText(/./, { selector: 'text' })).toHaveLength(21)
    expect(container.querySelector('.nj-map__pin-labels')?.getAttribute('aria-hidden')).toBe('true')
  })

  it('draws labels and pin heads at the sizes the build placed them with', () => {
    const { container } = render(<NjMap map={map} countyHref={countyHref} />)
    const sizes = (selector: string) => new Set([...container.querySelectorAll(selector)].map((t) => t.getAttribute('font-size')))
    expect(sizes('.nj-map__label')).toEqual(new Set([String(LABEL_FONT_SIZE)]))
    expect(sizes('.nj-map__pin-label')).toEqual(new Set([String(PIN_LABEL_FONT_SIZE)]))
    for (const dot of container.querySelectorAll('.nj-map__pin-dot')) expect(dot.getAttribute('cy')).toBe(String(-PIN_HEAD))
  })

  it('passes axe', async () => {
    const { container } = render(
      <main>
        <NjMap map={map} countyHref={countyHref} />
      </main>,
    )
    // Colour contrast needs layout, which happy-dom lacks; it is checked in a real browser.
    const results = await axe.run(container, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules: { 'color-contrast': { enabled: false } },
    })
    expect(results.passes.length).toBeGreaterThan(0)
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([])
  })
})
