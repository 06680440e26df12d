import type { Page } from '@playwright/test'
import type { StaffRole } from '../../domain/staff-access.ts'
import { desktop, expect, onPhone, test } from './fixtures.ts'

/**
 * The console from the keyboard alone, as each role (issue #46: every console page works as
 * before, at 390 px and 1280 px). For each page in the role's navigation: Tab from the top of the
 * page reaches its link, Enter opens it, and Tab then walks the whole page, every stop showing
 * where the focus is, until the focus leaves the page: every control the page shows is a stop
 * (none left out of the order, none holding the focus), and each has a visible focus ring.
 */

/** What one Tab landed on, and whether the person can see it there. */
interface Stop {
  name: string
  ringed: boolean
  shown: boolean
}

declare global {
  interface Window {
    /** The walk's record, kept by the page's focus listener. */
    keyboardWalk?: { stops: Stop[]; cycled: boolean }
  }
}

/**
 * Records each stop as the focus arrives, with its ring as the browser draws it then: the
 * element's own outline or shadow (`:focus-visible`), or its box's (`:focus-within`, the photo
 * and file pickers, whose input is hidden under its label).
 */
function recordStops(page: Page) {
  return page.evaluate(() => {
    const w: NonNullable<Window['keyboardWalk']> = { stops: [], cycled: false }
    window.keyboardWalk = w
    let first: EventTarget | undefined
    document.addEventListener('focusin', (event) => {
      const el = event.target as HTMLElement
      // Past the last control the focus goes round to the first (the browser has no other place).
      if (el === first) w.cycled = true
      if (w.cycled) return
      first ??= el
      const ring = (node: Element | null, depth: number): boolean => {
        if (!node || depth > 3) return false
        const style = getComputedStyle(node)
        const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
        return outlined || style.boxShadow !== 'none' || ring(node.parentElement, depth + 1)
      }
      const box = (node: Element | null): boolean => {
        if (!node) return false
        const rect = node.getBoundingClientRect()
        return (rect.width > 2 && rect.height > 2) || box(node.parentElement)
      }
      const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      w.stops.push({ name: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} “${label}”`, ringed: ring(el, 0), shown: box(el) })
    })
  })
}

/** Every control the page shows that the keyboard should stop on (a radio group is one stop). */
function tabbable(page: Page) {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])'
    const groups = new Set<string>()
    return [...document.querySelectorAll<HTMLElement>(selector)].filter((el) => {
      if ((el as HTMLButtonElement).disabled || el.tabIndex < 0 || el.closest('[inert]')) return false
      if (!el.checkVisibility({ visibilityProperty: true }) && !(el instanceof HTMLInputElement && el.type === 'file')) return false
      if (el instanceof HTMLInputElement && el.type === 'radio') {
        if (groups.has(el.name)) return false
        groups.add(el.name)
      }
      return true
    }).length
  })
}

/**
 * Presses Tab `times` times, sent to Chromium all at once (DevTools' own key events, which it
 * handles in order): a press awaited one by one is two round trips, which on a list of 300
 * controls was most of the test's time.
 */
async function pressTab(page: Page, times: number) {
  const cdp = await page.context().newCDPSession(page)
  const key = { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 }
  await Promise.all(Array.from({ length: times }, () => [cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...key }), cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key })]).flat())
  await cdp.detach()
}

/** Tabs from the top of the page until the focus goes round to its first control; the stops, in order. */
async function walk(page: Page): Promise<Stop[]> {
  await recordStops(page)
  const expected = await tabbable(page)
  // One press a stop (the listener keeps what each landed on), then more until the focus goes
  // round: a date field takes a press for each of its parts, and past the last control Chromium
  // gives the focus to the page itself or straight to the first.
  await pressTab(page, expected)
  const wentRound = () => page.evaluate(() => window.keyboardWalk?.cycled || document.activeElement === document.body)
  for (let more = 0; more < 40 && !(await wentRound()); more++) await page.keyboard.press('Tab')
  const stops = await page.evaluate(() => window.keyboardWalk?.stops ?? [])
  expect(await wentRound(), `${page.url()}: the focus went round, after ${stops.map((stop) => stop.name).join(', ')}`).toBe(true)
  expect(stops.length, `${page.url()}: ${stops.length} of ${expected} controls took the focus: ${stops.map((stop) => stop.name).join(', ')}`).toBe(expected)
  return stops
}

/** Tab from the top of the page until the link to `href` has the focus (at most `limit` presses). */
async function tabTo(page: Page, href: string, limit = 60) {
  await page.locator('body').evaluate((body) => (body.tabIndex = -1, body.focus(), body.removeAttribute('tabindex')))
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab')
    if ((await page.evaluate(() => document.activeElement?.getAttribute('href'))) === href) return
  }
  throw new Error(`${limit} presses of Tab from the top of ${page.url()} never reached the link to ${href}`)
}

const roles: { username: string; role: StaffRole; width: 'phone' | 'desk' }[] = [
  { username: 'olivia', role: 'owner', width: 'desk' },
  { username: 'manny', role: 'manager', width: 'phone' },
  { username: 'sal', role: 'sales', width: 'phone' },
]

test.use({ staffAccounts: [roles.map(({ username, role }) => ({ username, role })), { scope: 'worker' }] })

for (const { username, role, width } of roles) {
  test.describe(`as ${role} (${username}) on a ${width}`, () => {
    test.use({ signedInAs: username, ...(width === 'phone' ? onPhone : { viewport: desktop }) })

    test('reaches every page of the navigation by Tab and Enter, and walks each with a visible focus', async ({ page, server, problems }) => {
      test.slow()
      await page.goto(`${server.url}/staff/account`)
      const nav = page.getByRole('navigation', { name: 'Console' })
      const links = await nav.getByRole('link').evaluateAll((els) =>
        els.map((el) => ({ href: new URL((el as HTMLAnchorElement).href).pathname, label: (el.firstChild?.textContent ?? '').trim() })).filter((link) => link.href.startsWith('/staff')),
      )
      expect(links.map((link) => link.label)).toContain('Your account')
      for (const link of links) {
        // From the top of the page the link is on: Tab until it has the focus, then Enter.
        await tabTo(page, link.href)
        await page.keyboard.press('Enter')
        await expect(page).toHaveURL((url) => url.pathname === link.href)
        await expect(page.locator('h1')).toBeVisible()
        await expect(nav.locator('[aria-current="page"]')).toHaveAttribute('href', link.href)
        const stops = await walk(page)
        expect(stops.filter((stop) => !stop.ringed || !stop.shown).map((stop) => `${link.href}: ${stop.name}${stop.ringed ? '' : ' has no focus ring'}${stop.shown ? '' : ' is not shown'}`)).toEqual([])
        // The first stop is the way past the navigation.
        expect(stops[0]?.name).toContain('Skip to main content')
      }
      expect(problems).toEqual([])
    })
  })
}
