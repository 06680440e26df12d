import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../support/browser.ts'
import { pageTypes } from '../support/page-types.ts'
import { desktop, phone, useSite } from '../support/site-visits.ts'

/**
 * What visitors tripped over (issue #14): things only a browser's layout shows, measured at
 * the widths people use, from the smallest phones (320 px) to a laptop.
 */
const site = useSite()
const smallest = { width: 320, height: 640 }

/**
 * A page of the site at a width, for the cases that only measure: each page is loaded once (and
 * hydrated) in a tab kept for the file, and resized for each case, instead of a new context and a
 * full load per case. The site's layout is its CSS alone (no script of the site reads the width),
 * so a page resized to a width lays out as one loaded at it.
 */
let measuring: BrowserContext | undefined
const tabs = new Map<string, Page>()
afterAll(async () => {
  await measuring?.close()
})
async function at(path: string, viewport: { width: number; height: number }): Promise<Page> {
  let page = tabs.get(path)
  if (!page) {
    measuring ??= await site.browser.newContext({ viewport })
    page = await measuring.newPage()
    await page.setViewportSize(viewport)
    await page.goto(`${site.server.url}${path}`)
    await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
    tabs.set(path, page)
  }
  await page.setViewportSize(viewport)
  await page.evaluate(() => window.scrollTo(0, 0))
  return page
}

type Box = { left: number; right: number; top: number; bottom: number; width: number; height: number }
const box = (page: Page, selector: string): Promise<Box> =>
  page.locator(selector).first().evaluate((el) => {
    const { left, right, top, bottom, width, height } = el.getBoundingClientRect()
    return { left, right, top, bottom, width, height }
  })

describe('the site at every width', () => {
  // One case a page type and width: the first width loads every page, which on a loaded run took
  // longer than one case's minute when it was a single case.
  it.each(pageTypes.flatMap((path) => [smallest, phone, desktop].map((viewport) => ({ path, ...viewport }))))(
    'never scrolls sideways on $path at $width px',
    async ({ path, width, height }) => {
      const page = await at(path, { width, height })
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0)
    },
  )

  it.each([320, 340, 360, 375, 390, 414, 480, 640, 800, 1000, 1100, 1280])(
    'fits the header on one row at %i px, the business name whole',
    async (width) => {
      const page = await at('/', { width, height: 700 })
      const header = await page.evaluate(() => {
        const bar = document.querySelector('.site-header__bar')!.getBoundingClientRect()
        // The name's own text, wherever it is painted, not the box it may overflow.
        const name = document.querySelector<HTMLElement>('.site-header__brand span')!
        const text = document.createRange()
        text.selectNodeContents(name)
        const box = (r: DOMRect, label: string) => ({ name: label, left: r.left, right: r.right, top: r.top, bottom: r.bottom })
        const items = [...document.querySelectorAll<HTMLElement>('.site-header__bar > *, .site-header__actions > *')]
          .filter((el) => !el.classList.contains('site-header__actions') && el.offsetWidth > 0)
          .map((el) => (el.classList.contains('site-header__brand') ? box(text.getBoundingClientRect(), 'business name') : box(el.getBoundingClientRect(), el.className)))
          .sort((a, b) => a.left - b.left)
        return { bar: { top: bar.top, bottom: bar.bottom }, nameShown: name.offsetWidth > 0 && name.textContent === 'Jersey Cart Co.', items, viewport: window.innerWidth }
      })
      expect(header.nameShown).toBe(true)
      expect(header.items.map((i) => i.name)).toContain('business name')
      expect(header.bar.bottom - header.bar.top).toBeLessThanOrEqual(72)
      for (const [i, item] of header.items.entries()) {
        expect(item.left).toBeGreaterThanOrEqual(8)
        expect(item.right).toBeLessThanOrEqual(header.viewport - 8)
        expect(item.top).toBeGreaterThanOrEqual(header.bar.top)
        expect(item.bottom).toBeLessThanOrEqual(header.bar.bottom)
        // Nothing touches its neighbour: the name least of all.
        const next = header.items[i + 1]
        if (next) expect({ between: [item.name, next.name], gap: next.left - item.right >= 8 }).toMatchObject({ gap: true })
      }
    },
  )

  it.each([phone, desktop])('clamps every cart description to three lines at $width px', async (viewport) => {
    for (const path of ['/inventory', '/']) {
      const page = await at(path, viewport)
      const descriptions = await page.locator('.gc-card__description').evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent, height: el.getBoundingClientRect().height, line: parseFloat(getComputedStyle(el).lineHeight) })),
      )
      expect(descriptions.length).toBeGreaterThan(2)
      for (const d of descriptions) expect({ text: d.text, fits: d.height <= 3 * d.line + 1 }).toEqual({ text: d.text, fits: true })
    }
  })

  it('shows the label of the first invalid field below the sticky header, at phone width', async () => {
    const { page } = await site.look('/contact', phone)
    // The visitor has scrolled on a little: the first input shows, its label is under the header.
    await page.getByLabel('First Name').evaluate((input) => window.scrollBy(0, input.getBoundingClientRect().top - 90))
    expect((await box(page, 'label:has-text("First Name")')).top).toBeLessThan((await box(page, '.site-header')).bottom)
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstName')
    await page.waitForTimeout(200)
    const header = await box(page, '.site-header')
    const label = await box(page, 'label:has-text("First Name")')
    expect(label.top).toBeGreaterThanOrEqual(header.bottom)
    expect(label.bottom).toBeLessThanOrEqual(phone.height)
  })

  it.each([
    ['/vehicle/2025-evolution-d5-maverick-2-2', '.gc-feature', '.gc-feature__title', desktop],
    ['/vehicle/2025-evolution-d5-maverick-2-2', '.gc-highlight', '.gc-highlight__label', phone],
    ['/', '.info-card', '.info-card__title', desktop],
    ['/cape-may-county-golf-carts', '.info-card', '.info-card__title', desktop],
    ['/rentals', '.info-card', '.info-card__title', desktop],
  ])('lines up the titles of the cards in a row on %s (%s)', async (path, card, title, viewport) => {
    const page = await at(path, viewport)
    const rows = await page.evaluate(
      ([card, title]) => {
        const byRow = new Map<number, number[]>()
        for (const el of document.querySelectorAll(card!)) {
          const top = Math.round(el.getBoundingClientRect().top)
          const offset = el.querySelector(title!)!.getBoundingClientRect().top - top
          byRow.set(top, [...(byRow.get(top) ?? []), Math.round(offset)])
        }
        return [...byRow.values()]
      },
      [card, title],
    )
    expect(rows.some((row) => row.length > 1)).toBe(true)
    for (const offsets of rows) expect(new Set(offsets).size).toBe(1)
  })

  it('keeps breadcrumb separators with their neighbours at phone width, and offers Back to Inventory', async () => {
    const { page } = await site.look('/vehicle/2025-evolution-d5-maverick-2-2', phone)
    const lineStarts = await page.locator('.gc-breadcrumb').evaluate((nav) => {
      const left = nav.querySelector('ol')!.getBoundingClientRect().left
      // Each item after the first begins with its "/": it must never begin a line.
      return [...nav.querySelectorAll('li + li')].map((li) => Math.round(li.getClientRects()[0]!.left - left))
    })
    for (const start of lineStarts) expect(start).toBeGreaterThan(0)
    const back = page.getByRole('link', { name: 'Back to Inventory' })
    expect(await back.getAttribute('href')).toBe('/inventory')
    expect(await back.isVisible()).toBe(true)
  })

  it.each([
    [1280, 3],
    [1600, 3],
    [390, 1],
  ])('at %i px shows at least %i carts a row on /inventory', async (width, least) => {
    const page = await at('/inventory', { width, height: 900 })
    const tops = await page.locator('.gc-inventory__results .gc-card').evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)))
    const firstRow = tops.filter((top) => top === tops[0]).length
    expect(firstRow).toBeGreaterThanOrEqual(least)
    // Cards stay wide enough to read: never more than four a row.
    expect(firstRow).toBeLessThanOrEqual(4)
  })

  it('puts the showrooms beside the map on a wide screen, and under it on a phone', async () => {
    const page = await at('/', desktop)
    const map = await box(page, '.nj-map')
    const locations = await box(page, '.card-grid--locations')
    expect(locations.left).toBeGreaterThanOrEqual(map.right)
    expect(locations.top).toBeLessThan(map.bottom)
    const small = await at('/', phone)
    expect((await box(small, '.card-grid--locations')).top).toBeGreaterThan((await box(small, '.nj-map')).bottom)
  })

  it.each(['/rentals', '/rentals/cape-may-county-golf-cart-rentals', '/cape-may-county-golf-carts'])(
    'fills the right half of the hero on a wide screen on %s',
    async (path) => {
      const page = await at(path, desktop)
      // Something substantial starts near the middle: the text column alone leaves it empty.
      const filled = await page.locator('.hero .container').evaluate((container) => {
        const { left, width } = container.getBoundingClientRect()
        return [...container.querySelectorAll('*')].some((el) => {
          const r = el.getBoundingClientRect()
          return r.left >= left + width * 0.4 && r.height >= 150 && r.width >= 300
        })
      })
      expect(filled).toBe(true)
    },
  )

  it.each(['/', '/rentals/cape-may-county-golf-cart-rentals', '/vehicle/2025-evolution-d5-maverick-2-2', '/contact', '/services/request'])(
    'axe finds nothing on %s at 320 px',
    async (path) => {
      const { page } = await site.look(path, smallest)
      expect(await axeViolations(page)).toEqual([])
    },
  )
})
