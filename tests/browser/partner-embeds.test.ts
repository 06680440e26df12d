import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { addDays, newJerseyToday } from '../../domain/calendar-days.ts'
import { callToConfirm } from '../../domain/rental-request.ts'
import { axeViolations } from '../support/browser.ts'
import { addLoader as addLoaderTo, cards, usePartnerPages } from '../support/partner-pages.ts'

/**
 * What partner developers tripped over (issue #14): the ways real pages embed the widgets that
 * the demo pages did not: a sloppy `api-base`, web components, framework property bindings,
 * a pasted classic script, a strict Content-Security-Policy, in-page routing, `::part()`.
 */
const partner = usePartnerPages()

const openHtml = partner.openHtml

const addLoader = (page: Page) => addLoaderTo(page, partner.api.url)

/** Text inside any shadow root, however deep: what the visitor sees of a nested widget. */
function deepText(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const found: string[] = []
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll(selector)) found.push(el.textContent ?? '')
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot)
    }
    walk(document)
    return found
  }, selector)
}

describe('a partner page', () => {
  it('loads data with a trailing slash in api-base', async () => {
    const { page, problems } = await openHtml(
      `<gc-featured-carts api-base="${partner.api.url}/"></gc-featured-carts>
       <gc-vehicle-detail api-base="${partner.api.url}/" slug="2025-denago-ev-rover-xl6"></gc-vehicle-detail>`,
    )
    await addLoader(page)
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    await expect.poll(() => page.locator('gc-vehicle-detail h2.gc-vehicle__title').textContent()).toBe('2025 Denago EV Rover XL6')
    expect(await cards(page, 'gc-featured-carts').first().locator('a').getAttribute('href')).toBe(
      `${partner.api.url}/vehicle/2025-denago-ev-nomad-xl`,
    )
    expect(problems).toEqual([])
  })

  it("finds elements inside other components' shadow roots, already there or added later", async () => {
    // A web component that renders whatever its `content` attribute says into an open shadow
    // root, as Lit or Stencil components do, once it is defined.
    const { page, problems } = await openHtml(
      `<partner-panel content="&lt;gc-rental-plans county=&quot;ocean&quot;&gt;&lt;/gc-rental-plans&gt;"></partner-panel>
       <partner-panel content="&lt;partner-panel content='&amp;lt;gc-payment-calculator price=&amp;quot;9000&amp;quot;&amp;gt;&amp;lt;/gc-payment-calculator&amp;gt;'&gt;&lt;/partner-panel&gt;"></partner-panel>`,
    )
    await page.evaluate(() => {
      customElements.define(
        'partner-panel',
        class extends HTMLElement {
          connectedCallback() {
            const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' })
            root.innerHTML = this.getAttribute('content') ?? ''
          }
        },
      )
    })
    await addLoader(page)
    await expect.poll(async () => (await deepText(page, '.gc-plan')).length).toBe(12)
    // Two shadow roots deep.
    await expect.poll(async () => (await deepText(page, '.gc-calculator .gc-heading')).length).toBe(1)

    // After the loader ran: a component defined and rendered later, asynchronously, as Lit does.
    await page.evaluate(() => {
      customElements.define(
        'partner-later',
        class extends HTMLElement {
          constructor() {
            super()
            this.attachShadow({ mode: 'open' })
          }
          connectedCallback() {
            setTimeout(() => (this.shadowRoot!.innerHTML = '<section><gc-featured-carts limit="2"></gc-featured-carts></section>'), 50)
          }
        },
      )
      document.body.append(document.createElement('partner-later'))
      // And a shadow root attached to an element that was already on the page.
      const box = document.createElement('div')
      document.body.append(box)
      box.attachShadow({ mode: 'open' }).innerHTML = '<gc-vehicle-detail slug="2025-denago-ev-city"></gc-vehicle-detail>'
    })
    await expect.poll(async () => (await deepText(page, '.gc-card:not(.gc-card--skeleton) .gc-card__title')).length).toBe(2)
    await expect.poll(() => deepText(page, '.gc-vehicle__title')).toEqual(['2025 Denago EV City'])
    expect(problems).toEqual([])
  })

  it('keeps properties set before the element code arrived, and follows later ones', async () => {
    const { page, problems } = await openHtml('<main></main>')
    // What Angular, Lit and Vue do with a property binding on a custom element.
    await page.evaluate(() => {
      const vehicle = document.createElement('gc-vehicle-detail') as HTMLElement & { slug: string }
      vehicle.slug = '2025-denago-ev-city'
      const featured = document.createElement('gc-featured-carts') as HTMLElement & { limit: number }
      featured.limit = 2
      document.querySelector('main')!.append(vehicle, featured)
    })
    await addLoader(page)
    await expect.poll(() => page.locator('gc-vehicle-detail h2.gc-vehicle__title').textContent()).toBe('2025 Denago EV City')
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(2)
    await page.evaluate(() => ((document.querySelector('gc-vehicle-detail') as HTMLElement & { slug: string }).slug = '2025-denago-ev-nomad'))
    await expect.poll(() => page.locator('gc-vehicle-detail h2.gc-vehicle__title').textContent()).toBe('2025 Denago EV Nomad')
    expect(problems).toEqual([])
  })

  it('runs the loader pasted as a classic script, leaking no globals, and preloads shared code', async () => {
    // The page's globals after the loader ran, before any element asked for code: a classic
    // script's top-level names would be there.
    const { page, problems } = await openHtml('<main></main>', {
      head: `<script>window.before = Object.keys(window)</script><script src="${partner.api.url}/widgets/gc-widgets.js"></script>`,
    })
    const leaked = await page.evaluate(() => {
      const before = (window as typeof window & { before: string[] }).before
      return Object.keys(window).filter((key) => !before.includes(key) && key !== 'before')
    })
    expect(leaked).toEqual([])
    await page.evaluate(() =>
      document.querySelector('main')!.insertAdjacentHTML('beforeend', '<gc-inventory></gc-inventory><gc-payment-calculator></gc-payment-calculator>'),
    )
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    await expect.poll(() => page.locator('gc-payment-calculator form').count()).toBe(1)
    const preloaded = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href))
    expect(preloaded.some((href) => /\/widgets\/chunks\/define-widget-[\w-]+\.js$/.test(href))).toBe(true)
    expect(problems).toEqual([])
  })

  it('the dealer has not allowed tells the visitor how to reach the dealer before they type, and the developer which origin to allow', async () => {
    const [before] = await partner.api.db.sql`select count(*)::int as n from contact_inquiries`
    const context = await partner.newContext()
    const page = await context.newPage()
    const consoleErrors: string[] = []
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()))
    await page.addInitScript(() => {
      const events: unknown[] = ((window as typeof window & { gcErrors: unknown[] }).gcErrors = [])
      document.addEventListener('gc-error', (e) => events.push((e as CustomEvent).detail))
    })
    await page.goto(`${partner.foreignOrigin}/quote-landing.html`)

    const notice = page.locator('gc-contact-form [part~="notice"]')
    await expect.poll(() => notice.textContent()).toContain('(888) 555-0100')
    expect(await notice.textContent()).toContain('sales@example.com')
    expect(await notice.locator('a[href="tel:+18885550100"]').count()).toBe(1)
    expect(await page.locator('gc-contact-form input, gc-contact-form textarea').count()).toBe(0)
    expect(consoleErrors).toContainEqual(
      expect.stringContaining(`Ask the dealer to add ${partner.foreignOrigin} to ALLOWED_ORIGINS`),
    )
    expect(await page.evaluate(() => (window as typeof window & { gcErrors: unknown[] }).gcErrors)).toEqual([
      { message: expect.stringContaining(`Leads from ${partner.foreignOrigin} are not accepted`) },
    ])
    expect(await axeViolations(page)).toEqual([])

    // Without the widget: the browser blocks the answer, and the server refuses the POST.
    const direct = await page.evaluate(async (url) => {
      try {
        await fetch(`${url}/api/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ firstName: 'X', lastName: 'Y', email: 'x@example.com' }),
        })
        return 'answered'
      } catch {
        return 'blocked'
      }
    }, partner.api.url)
    expect(direct).toBe('blocked')
    const [after] = await partner.api.db.sql`select count(*)::int as n from contact_inquiries`
    expect(after?.n).toBe(before?.n)
    // Reads stay open to that origin.
    await expect.poll(() => page.locator('gc-payment-calculator form').count()).toBe(1)

    // The same page on an allowed origin shows the form, and says nothing in the console.
    const allowed = await partner.look('/quote-landing.html')
    await allowed.page.locator('gc-contact-form input[name="firstName"]').waitFor()
    await allowed.page.waitForTimeout(300)
    expect(await allowed.page.locator('gc-contact-form [part~="notice"]').count()).toBe(0)
    expect(allowed.problems).toEqual([])
  })

  it('routes in its own page when it cancels gc-vehicle-select', async () => {
    const { page } = await partner.look('/dealer-network.html')
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    const here = page.url()
    await page.evaluate(() => {
      document.addEventListener('gc-vehicle-select', (event) => {
        event.preventDefault()
        const { slug } = (event as CustomEvent<{ slug: string }>).detail
        history.pushState(null, '', `#cart=${slug}`)
      })
    })
    await cards(page, 'gc-inventory').first().getByRole('link').click()
    await expect.poll(() => page.url()).toBe(`${here}#cart=2025-denago-ev-city`)
    await page.waitForTimeout(300)
    expect(page.url()).toBe(`${here}#cart=2025-denago-ev-city`)
    expect(await cards(page, 'gc-inventory').count()).toBe(24)
  })

  it('styles every field and input through ::part(), as the README lists them', async () => {
    const { page } = await partner.look('/all-elements.html')
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    await page.locator('gc-contact-form form').waitFor()
    const tags = ['gc-inventory', 'gc-payment-calculator', 'gc-contact-form']
    await page.addStyleTag({
      content: tags.map((t) => `${t}::part(field) { outline: 3px solid rgb(1, 2, 3) } ${t}::part(input) { border-color: rgb(4, 5, 6) }`).join('\n'),
    })
    const styled = await page.evaluate((tags) => {
      return tags.map((tag) => {
        const root = document.querySelector(tag)!.shadowRoot!
        return {
          tag,
          fields: [...root.querySelectorAll('.gc-field')].map((el) => getComputedStyle(el).outlineColor),
          inputs: [...root.querySelectorAll('.gc-input')].map((el) => getComputedStyle(el).borderTopColor),
        }
      })
    }, tags)
    for (const { fields, inputs } of styled) {
      expect(fields.length).toBeGreaterThan(0)
      expect(new Set(fields)).toEqual(new Set(['rgb(1, 2, 3)']))
      expect(new Set(inputs)).toEqual(new Set(['rgb(4, 5, 6)']))
    }
  })

  it('works under a strict Content-Security-Policy that names the dealer in three directives', async () => {
    const { page, problems } = await partner.look('/strict-csp.html')
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    await expect.poll(() => page.locator('gc-vehicle-detail h2.gc-vehicle__title').textContent()).toBe('2025 Denago EV Rover XL6')
    await expect.poll(() => page.locator('gc-rental-plans .gc-plan').count()).toBe(12)
    const images = await page.evaluate(() =>
      [...document.querySelector('gc-featured-carts')!.shadowRoot!.querySelectorAll('img')].map((img) => img.naturalWidth),
    )
    expect(images).toEqual([800, 800, 800])
    // Themed by the widget's own stylesheet, which style-src 'self' does not block.
    expect(await page.locator('gc-rental-plans .gc-plan').first().evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid')

    await page.locator('gc-contact-form input[name="firstName"]').fill('Strict')
    await page.locator('gc-contact-form input[name="lastName"]').fill('Policy')
    await page.locator('gc-contact-form input[name="email"]').fill('strict.policy@example.com')
    await page.locator('gc-contact-form button[type="submit"]').click()
    await expect.poll(() => page.locator('gc-contact-form .gc-toast__title').textContent()).toBe('Message sent successfully!')
    expect(problems).toEqual([])
    expect(await axeViolations(page)).toEqual([])
  })

  it('loads a pinned release by its integrity hash under a strict policy, and the browser refuses it with a wrong hash', async () => {
    const api = partner.api.url
    const { versions, latest } = await (await fetch(`${api}/widgets/versions.json`)).json()
    const pinned = versions.find((v: { version: string }) => v.version === latest)
    expect(pinned.integrity).toMatch(/^sha384-/)
    const csp = `default-src 'none'; script-src ${api}; connect-src ${api}; img-src ${api}`
    const tag = (integrity: string) =>
      `<script type="module" src="${api}/widgets/v/${pinned.version}/gc-widgets.js" integrity="${integrity}" crossorigin="anonymous"></script>`
    const good = await openHtml('<gc-featured-carts></gc-featured-carts>', { head: tag(pinned.integrity), csp })
    await expect.poll(() => cards(good.page, 'gc-featured-carts').count(), { timeout: 20_000 }).toBe(3)
    // Its element code comes from the same pinned release.
    expect(good.requests.filter((url) => url.includes('/chunks/')).every((url) => url.startsWith(`${api}/widgets/v/${pinned.version}/chunks/`))).toBe(true)
    expect(good.problems).toEqual([])

    const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`
    const bad = await openHtml('<gc-featured-carts></gc-featured-carts>', { head: tag(wrong), csp })
    const consoleErrors: string[] = []
    bad.page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()))
    await bad.page.reload()
    await expect.poll(() => consoleErrors.join('\n'), { timeout: 10_000 }).toMatch(/integrity/i)
    expect(await bad.page.evaluate(() => customElements.get('gc-featured-carts') === undefined)).toBe(true)
    expect(await cards(bad.page, 'gc-featured-carts').count()).toBe(0)
  })

  it("works under a nonce-based policy with only the nonce on the loader's tag", async () => {
    const api = partner.api.url
    const { page, problems } = await openHtml('<gc-featured-carts></gc-featured-carts><gc-payment-calculator></gc-payment-calculator>', {
      head: `<script type="module" nonce="r4nd0m" src="${api}/widgets/gc-widgets.js"></script>`,
      csp: `default-src 'none'; script-src 'nonce-r4nd0m' 'strict-dynamic'; connect-src ${api}; img-src ${api}`,
    })
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    await expect.poll(() => page.locator('gc-payment-calculator form').count()).toBe(1)
    expect(problems).toEqual([])
  })

  it('takes a rental request through <gc-rental-request>, its plan card links back to the dealer, and axe finds nothing', async () => {
    const api = partner.api.url
    const { page, problems } = await openHtml(
      `<main><h1>Shore rentals</h1>
       <gc-rental-request cart-type="utility" plan="monthly" county="ocean" source="shore-rentals"></gc-rental-request>
       <gc-rental-plans></gc-rental-plans></main>`,
    )
    await page.evaluate(() => {
      const events: unknown[] = []
      Object.assign(window, { events })
      document.addEventListener('gc-lead-submitted', (e) => events.push({ detail: (e as CustomEvent).detail, composed: e.composed }))
    })
    await addLoader(page)
    const form = page.locator('gc-rental-request form')
    await form.waitFor()
    expect(await page.locator('gc-rental-request h2').textContent()).toBe('Request a Golf Cart Rental in Ocean County')
    expect(await form.locator('select[name="rental.plan"]').inputValue()).toBe('monthly')
    expect(await page.locator('gc-rental-request [part~="result"]').textContent()).toContain('Utility, Monthly plan (30 days): $2,800')
    // "Request these dates" on an embedded plan card leads to the dealer's page, not the partner's.
    await expect.poll(() => page.locator('gc-rental-plans a.gc-plan__request').count()).toBe(12)
    expect(await page.locator('gc-rental-plans a.gc-plan__request').first().getAttribute('href')).toBe(
      `${api}/rentals/request?cartType=4-seater&plan=daily#request`,
    )

    await form.locator('input[name="rental.startDate"]').fill(addDays(newJerseyToday(), 30))
    await form.locator('select[name="rental.showroom"]').selectOption('waretown')
    await expect.poll(() => page.locator('gc-rental-request [part~="result"]').textContent()).toContain('A Utility is free for those dates.')
    await form.locator('input[name="firstName"]').fill('Pat')
    await form.locator('input[name="lastName"]').fill('Partner')
    await form.locator('input[name="email"]').fill('pat.partner@example.com')
    expect(await axeViolations(page)).toEqual([])
    await form.getByRole('button', { name: 'Send Request' }).click()
    await expect.poll(() => page.locator('gc-rental-request [part~="notice"]').textContent()).toContain(callToConfirm)
    const events = (await page.evaluate(() => (window as typeof window & { events: unknown[] }).events)) as { detail: { id: number; interest: string }; composed: boolean }[]
    expect(events).toEqual([{ detail: { id: expect.any(Number), interest: 'rentals' }, composed: true }])
    const [stored] = await partner.api.db.sql<{ sourceLabel: string; plan: string; showroom: string }[]>`
      select i.source_label, r.plan, r.showroom from contact_inquiries i join rental_requests r on r.inquiry_id = i.id
      where i.id = ${events[0]!.detail.id}
    `
    expect(stored).toEqual({ sourceLabel: 'shore-rentals', plan: 'monthly', showroom: 'waretown' })
    // A server busy past its read deadline may answer a quote 503 (CI has seen it under load):
    // the widget asks again (widgets/shared/api.tsx, `retryWhileBusy`), and the answer shown above
    // came from that. Those answers, and the browser's one console line for each, are the only
    // problems allowed.
    const busyQuotes = problems.filter((p) => /^503: .*\/trpc\/rental\.quote\?/.test(p)).length
    let busyLines = busyQuotes
    const others = problems.filter((p) => {
      if (/^503: .*\/trpc\/rental\.quote\?/.test(p)) return false
      if (busyLines === 0 || p !== 'console: Failed to load resource: the server responded with a status of 503 (Service Unavailable)') return true
      busyLines--
      return false
    })
    expect({ others, retriedAtMost: busyQuotes <= 2 }).toEqual({ others: [], retriedAtMost: true })
  })
})
