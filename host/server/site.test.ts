import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { business } from '../../domain/business.ts'
import { counties } from '../../domain/counties.ts'
import { vinProblem, withCheckDigit } from '../../domain/vin.ts'
import { fetchPage, type Page, parsePage } from '../../tests/support/html.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
/** The seeded inventory's pages of 24, computed from the starting inventory, not remembered. */
const seededCarts = startingInventory().length
const seededPages = Math.ceil(seededCarts / 24)


/** The raw HTML a search engine gets, before any JavaScript runs (issue #4). */
let server: TestServer
const siteUrl = 'https://carts.example'

beforeAll(async () => {
  server = await startTestServer('pglite', { SITE_URL: siteUrl, LOG_LEVEL: 'silent' }, { site: true })
})
afterAll(() => server?.close())

const get = (path: string) => fetchPage(`${server.url}${path}`)

function expectCompleteHead(page: Page, path: string, title: RegExp | string) {
  expect(page.text('title')).toMatch(title)
  expect(page.meta('description')?.length).toBeGreaterThan(60)
  expect(page.meta('description')).toMatch(/Call \(888\) 555-0100 today\.$/)
  expect(page.meta('keywords')?.split(', ').length).toBeGreaterThanOrEqual(3)
  expect(page.meta('theme-color')).toBe('#facc15')
  expect(page.meta('page-type')).toBeTruthy()
  expect(page.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${siteUrl}${path}`)
  expect(page.property('og:url')).toBe(`${siteUrl}${path}`)
  expect(page.property('og:title')).toBe(page.text('title'))
  expect(page.property('og:description')).toBe(page.meta('description'))
  expect(page.property('og:image')).toMatch(new RegExp(`^${siteUrl}/images/.+\\.png$`))
  expect(Number(page.property('og:image:width'))).toBeGreaterThan(0)
  expect(page.meta('twitter:card')).toMatch(/^summary/)
  expect(page.meta('twitter:title')).toBe(page.text('title'))
}

function expectOneH1(page: Page, text: string) {
  expect(page.all('h1')).toEqual([text])
}

/** The dealer, serving all 21 counties, or on a county's pages that county alone. */
function expectDealer(page: Page, areasServed = 21) {
  const dealer = page.jsonLd().find((d) => d['@type'] === 'AutoDealer')
  expect(dealer).toBeDefined()
  expect(dealer).toMatchObject({ name: business.name, telephone: business.tollFree.tel, url: `${siteUrl}/` })
  expect(dealer!.areaServed).toHaveLength(areasServed)
  expect((dealer!.department as unknown[]).length).toBe(4)
  expect(dealer!.openingHoursSpecification).toHaveLength(2)
}

describe('fixed pages', () => {
  it.each([
    ['/', 'home', "New Jersey's Electric Golf Cart Dealer", /^Jersey Cart Co\. \| Electric Golf Carts in New Jersey$/],
    ['/inventory', 'inventory', 'Golf Cart Inventory', 'Golf Cart Inventory | Jersey Cart Co.'],
    ['/rentals', 'rentals', 'Golf Cart Rentals', 'Golf Cart Rentals in New Jersey | Jersey Cart Co.'],
    ['/services', 'services', 'Our Services', /^Golf Cart Sales, Service/],
    ['/financing', 'financing', 'Golf Cart Financing', 'Golf Cart Financing | Jersey Cart Co.'],
    ['/about', 'about', 'About Jersey Cart Co.', 'About Us | Jersey Cart Co.'],
    ['/contact', 'contact', 'Contact Us', 'Contact Us | Jersey Cart Co.'],
    ['/privacy-policy', 'policy', 'Privacy Policy', 'Privacy Policy | Jersey Cart Co.'],
    ['/terms-of-service', 'terms', 'Terms of Service', 'Terms of Service | Jersey Cart Co.'],
  ])('%s answers 200 with its content, one h1 and complete metadata', async (path, pageType, h1, title) => {
    const page = await get(path)
    expect(page.status).toBe(200)
    expectOneH1(page, h1)
    expectCompleteHead(page, path, title)
    expect(page.meta('page-type')).toBe(pageType)
    expect(page.meta('robots')).toBe('index, follow')
    expect(page.document.querySelector('html')?.getAttribute('lang')).toBe('en')
  })

  it('renders the header, current link, skip link and footer on every page', async () => {
    const page = await get('/services')
    expect(page.text('a.skip-link')).toBe('Skip to main content')
    expect(page.all('nav[aria-label="Main"] a')).toEqual(['Home', 'Inventory', 'Rentals', 'Services', 'About', 'Contact'])
    expect(page.text('nav[aria-label="Main"] a[aria-current="page"]')).toBe('Services')
    const footerLinks = Array.from(page.document.querySelectorAll('footer a')).map((a) => a.getAttribute('href'))
    for (const href of ['/', '/inventory', '/rentals', '/services', '/financing', '/about', '/privacy-policy', '/terms-of-service', business.networkUrl]) {
      expect(footerLinks).toContain(href)
    }
    expect(footerLinks.filter((h) => h?.endsWith('-county-golf-carts'))).toHaveLength(21)
    // Every phone number shown is a tel: link.
    for (const link of page.document.querySelectorAll('a[href^="tel:"]')) {
      expect(link.getAttribute('href')).toMatch(/^tel:\+1\d{10}$/)
    }
    const phoneTexts = (page.text('body') ?? '').match(/\(\d{3}\) \d{3}-\d{4}/g) ?? []
    const linkedPhones = Array.from(page.document.querySelectorAll('a[href^="tel:"]')).flatMap(
      (a) => a.textContent?.match(/\(\d{3}\) \d{3}-\d{4}/g) ?? [],
    )
    expect(phoneTexts.length).toBeGreaterThan(0)
    expect(linkedPhones.length).toBe(phoneTexts.length)
  })

  it('home has the hero, four reasons, brands, three featured carts, map, five locations and JSON-LD', async () => {
    const page = await get('/')
    expect(page.all('main a.gc-button').slice(0, 2)).toEqual(['View Inventory', 'Get Quote'])
    expect(page.all('.info-card__title')).toEqual(['Premium Quality', 'Expert Service', '0% Financing', 'Eco-Friendly'])
    expect(page.all('.brand-tile')).toEqual(['Club Car', 'EZ-GO', 'Denago', 'Evolution', 'Tomberlin', 'Swift EV', 'Icon'])
    expect(page.all('.gc-featured .gc-card__title')).toEqual(['2025 Denago EV Nomad XL', '2025 Denago EV Rover XL6', '2025 Evolution D6 Max GT4'])
    expect(page.all('.gc-featured .gc-card__price')).toEqual(['$12,495', '$13,995', '$14,995'])
    expect(page.text('.gc-featured__more a')).toBe('View Full Inventory')
    expect(page.html).toContain('500+')
    expect(page.html).toContain('15+')
    expect(page.document.querySelectorAll('.nj-map a[href$="-county-golf-carts"]')).toHaveLength(21)
    expect(page.all('.location-card__name')).toEqual(['Ocean View', 'Bayville', 'Waretown', 'Pleasantville', 'New Jersey'])
    expect(page.text('.card-grid--locations')).toContain('Serving all 21 New Jersey counties')
    expectDealer(page)
  })

  it('inventory shows the first 24 carts in the raw HTML, and links to the next page', async () => {
    const page = await get('/inventory')
    expect(page.document.querySelectorAll('.gc-card:not(.gc-card--skeleton)')).toHaveLength(24)
    expect(page.text('.gc-pager')).toContain(`Page 1 of ${seededPages}`)
    expect(page.document.querySelector('.gc-pager a[rel="next"]')?.getAttribute('href')).toBe('/inventory?page=2')
    const second = await get('/inventory?page=2')
    expect(second.document.querySelectorAll('.gc-card')).toHaveLength(Math.min(24, seededCarts - 24))
    expect(second.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${siteUrl}/inventory?page=2`)
    expect(second.text('title')).toBe('Golf Cart Inventory, Page 2 | Jersey Cart Co.')
  })

  it('rentals shows the plans, six benefits and links to every county rental page', async () => {
    const page = await get('/rentals')
    expect(page.document.querySelectorAll('.gc-plan')).toHaveLength(12)
    expect(page.all('.gc-rental-type__title')).toEqual(['4 Seater Rental Plans', '6 Seater Rental Plans', 'Utility Rental Plans'])
    expect(page.all('main .info-card__title')).toHaveLength(6)
    expect(page.document.querySelectorAll('a[href$="-county-golf-cart-rentals"]')).toHaveLength(21)
    expect(page.text('.gc-footnotes')).toContain('Rental periods are calculated in 24-hour increments')
  })

  it('services shows four offerings with five features and both buttons each', async () => {
    const page = await get('/services')
    expect(page.all('.service-card__title')).toEqual([
      'New & Used Golf Cart Sales',
      'Service & Repair',
      'Custom Builds & Modifications',
      'Parts & Accessories',
    ])
    const asks: [string, string][] = []
    for (const card of page.document.querySelectorAll('.service-card')) {
      expect(card.querySelectorAll('.check-list li')).toHaveLength(5)
      expect(card.querySelector('a[href^="tel:"]')).not.toBeNull()
      const ask = card.querySelector('a.gc-button--primary')!
      asks.push([ask.textContent.trim(), ask.getAttribute('href')!])
    }
    // Each card's button files its lead under its own interest: sales and parts are not service.
    expect(asks).toEqual([
      ['Get a Quote (New & Used Golf Cart Sales)', '/contact#send-message'],
      ['Schedule Service (Service & Repair)', '/services/request#request'],
      ['Plan a Custom Build (Custom Builds & Modifications)', '/contact?interest=service#send-message'],
      ['Ask About Parts (Parts & Accessories)', '/contact#send-message'],
    ])
  })

  it('financing shows the highlights, the documents and the calculator', async () => {
    const page = await get('/financing')
    expect(page.all('.info-card__title')).toEqual(['0% APR Available', 'Flexible Terms', 'Quick Approval'])
    for (const doc of ["Valid driver's license", 'Proof of income', 'Social Security number', 'Bank account information', 'Proof of residence']) {
      expect(page.html).toContain(doc.replace("'", '&#x27;')) // React escapes the apostrophe
    }
    expect(page.text('.gc-calculator button')).toBe('Calculate Payment')
  })

  it('about tells the story with its stats, the carts in stock counted from the inventory, no rating without a source, and four values', async () => {
    const page = await get('/about')
    expect(page.text('main')).toContain('2009')
    expect(page.all('.stats dt')).toEqual(['Happy Customers', 'Years Experience', 'Carts in Stock'])
    const listed = Number((await fetch(`${server.url}/api/golf-carts?limit=1`)).headers.get('x-total-count'))
    expect(page.all('.stats dd')[2]).toBe(String(listed))
    expect(page.html).not.toContain('100+')
    expect(page.html).not.toContain('out of 5 stars')
    expect(page.all('.info-card__title')).toEqual(['Quality First', 'Customer Service', 'Expert Knowledge', 'Fair Pricing'])
    expect(page.document.querySelector('main a[href="/contact"].gc-button')?.textContent).toBe('Visit Our Showrooms')
  })

  it('contact has the intro cards, the form, contact details, five locations and JSON-LD', async () => {
    const page = await get('/contact')
    expect(page.all('.info-card__title')).toEqual(['Sales Inquiries', 'Service & Repair', 'Financing', 'General Questions'])
    expect(page.text('.gc-contact h2')).toBe('Send Us a Message')
    expect(page.document.querySelector('input[type="email"]')).not.toBeNull()
    expect(page.text('.contact-list')).toContain(business.email)
    expect(page.text('.contact-list')).toContain('Sun: Closed')
    expect(page.document.querySelectorAll('.location-card')).toHaveLength(5)
    expectDealer(page)
  })

  it('the policy has eight sections and the terms ten, both dated January 14, 2025', async () => {
    const privacy = await get('/privacy-policy')
    expect(privacy.all('.legal section h2')).toHaveLength(8)
    expect(privacy.text('.legal__dates')).toBe('Effective January 14, 2025. Last updated January 14, 2025.')
    const terms = await get('/terms-of-service')
    expect(terms.all('.legal section h2')).toHaveLength(10)
    expect(terms.text('.legal')).toContain('New Jersey')
  })
})

describe('county pages', () => {
  it.each(counties.map((c) => [c.value, c.name]))('/%s-county-golf-carts is complete', async (value, name) => {
    const county = counties.find((c) => c.value === value)!
    const path = `/${value}-county-golf-carts`
    const page = await get(path)
    expect(page.status).toBe(200)
    expectOneH1(page, `${name} County Golf Carts`)
    expectCompleteHead(page, path, `${name} County Golf Carts | Jersey Cart Co.`)
    expect(page.meta('page-type')).toBe('county')
    expect(page.meta('keywords')?.split(', ')).toHaveLength(4)
    expect(page.all('.brand-tile__name')).toEqual(['Evolution', 'Denago', 'Swift EV', 'Icon', 'Club Car', 'EZ-GO'])
    expect(page.all('.brand-tile__letter')).toEqual(['E', 'D', 'S', 'I', 'C', 'E'])
    expect(page.text('.gc-featured h2')).toBe(`Featured Golf Carts in ${name}`)
    expect(page.document.querySelectorAll('.gc-featured .gc-card')).toHaveLength(3)
    expect(page.text('#county-story')).toBe(`Serving ${name} Since 2009`)
    for (const town of county.storyTowns) expect(page.text('main')).toContain(town)
    const hrefs = Array.from(page.document.querySelectorAll('main a')).map((a) => a.getAttribute('href'))
    expect(hrefs).toEqual(expect.arrayContaining(['/inventory', '/contact', '/about', `/rentals/${value}-county-golf-cart-rentals`]))
    expectDealer(page, 1)
  })

  it.each(counties.map((c) => [c.value, c.name]))('/rentals/%s-county-golf-cart-rentals is complete', async (value, name) => {
    const county = counties.find((c) => c.value === value)!
    const path = `/rentals/${value}-county-golf-cart-rentals`
    const page = await get(path)
    expect(page.status).toBe(200)
    expectOneH1(page, `${name} Golf Cart Rentals`)
    expectCompleteHead(page, path, `${name} County Golf Cart Rentals | Jersey Cart Co.`)
    expect(page.meta('page-type')).toBe('rentals')
    expect(page.text('.hero__subtitle')).toBe(`Flexible rental plans for every occasion in ${name}, New Jersey`)
    expect(page.all('.town-list li')).toEqual([...county.rentalTowns])
    expect(page.all('h2')).toContain(`Why Choose Our ${name} Golf Cart Rentals?`)
    expect(page.document.querySelectorAll('.gc-plan')).toHaveLength(12)
    expect(page.text('.call-block')).toContain(`Book Your ${name} Rental Today!`)
    expect(page.html).not.toContain('CapeMay')
  })

  it('an unknown county answers 404', async () => {
    expect((await get('/manhattan-county-golf-carts')).status).toBe(404)
    expect((await get('/rentals/manhattan-county-golf-cart-rentals')).status).toBe(404)
  })
})

describe('vehicle pages', () => {
  it('carry the cart, its price, Product and BreadcrumbList JSON-LD and its image', async () => {
    const path = '/vehicle/2025-evolution-d6-max-gt4'
    const page = await get(path)
    expect(page.status).toBe(200)
    expectOneH1(page, '2025 Evolution D6 Max GT4')
    expectCompleteHead(page, path, '2025 Evolution D6 Max GT4 | Jersey Cart Co.')
    expect(page.meta('description')).toMatch(/^2025 Evolution D6 Max GT4, starting at \$14,995\./)
    expect(page.property('og:type')).toBe('product')
    expect(page.property('og:image')).toBe(`${siteUrl}/images/carts/2025-evolution-d6-max-gt4.png`)
    expect([page.property('og:image:width'), page.property('og:image:height')]).toEqual(['800', '600'])
    expect(page.text('.gc-vehicle__price')).toBe('$14,995')
    expect(page.text('.gc-spec-groups')).toContain('In Stock')
    const [product, crumbs] = page.jsonLd()
    expect(product).toMatchObject({
      '@type': ['Product', 'Car'],
      name: '2025 Evolution D6 Max GT4',
      brand: { '@type': 'Brand', name: 'Evolution' },
      model: 'D6 Max GT4',
      vehicleModelDate: '2025',
      vehicleSeatingCapacity: 4,
      offers: { '@type': 'Offer', price: '14995.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    })
    expect(crumbs).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { position: 1, name: 'Home', item: `${siteUrl}/` },
        { position: 2, name: 'Inventory', item: `${siteUrl}/inventory` },
        { position: 3, name: '2025 Evolution D6 Max GT4', item: `${siteUrl}${path}` },
      ],
    })
  })

  it('carry Car JSON-LD with the VIN, stock number, brand, model, year, colour, seats and the status as availability', async () => {
    const vin = withCheckDigit('5ZEVD6M40S0000042')
    await server.db.sql`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url, year, make, model, vin, stock_number, color, seats, status, street_legal)
      values ('2026-denago-ev-rover-xl-street', '2026-denago-ev-rover-xl-street', '2026 Denago EV Rover XL Street', 'Street-legal Rover.', 15995,
        '/images/carts/2025-denago-ev-rover-xl.svg', 2026, 'Denago', 'EV Rover XL', ${vin}, 'DN-4242', 'Sky Blue', 4, 'hold', true)
    `
    const page = await get('/vehicle/2026-denago-ev-rover-xl-street')
    const car = page.jsonLd().find((d) => Array.isArray(d['@type']) && (d['@type'] as string[]).includes('Car'))
    expect(car).toMatchObject({
      '@context': 'https://schema.org',
      '@type': ['Product', 'Car'],
      vehicleIdentificationNumber: vin,
      sku: 'DN-4242',
      brand: { '@type': 'Brand', name: 'Denago' },
      model: 'EV Rover XL',
      vehicleModelDate: '2026',
      color: 'Sky Blue',
      vehicleSeatingCapacity: 4,
      itemCondition: 'https://schema.org/NewCondition',
      offers: { '@type': 'Offer', price: '15995.00', priceCurrency: 'USD', availability: 'https://schema.org/Reserved', sku: 'DN-4242' },
    })
    expect(vinProblem((car as { vehicleIdentificationNumber: string }).vehicleIdentificationNumber)).toBeUndefined()
  })

  it('moves the alternative slug reading permanently to the canonical one', async () => {
    const res = await fetch(`${server.url}/vehicle/2025-evolution-d5-maverick-22`, { redirect: 'manual' })
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/vehicle/2025-evolution-d5-maverick-2-2')
  })

  it('answers an unknown cart with 404 and Vehicle Not Found', async () => {
    const page = await get('/vehicle/no-such-cart')
    expect(page.status).toBe(404)
    expectOneH1(page, 'Vehicle Not Found')
    expect(page.text('main')).toContain("The vehicle you're looking for doesn't exist or has been removed.")
    expect(page.document.querySelector('main a[href="/inventory"]')?.textContent).toBe('Back to Inventory')
    expect(page.meta('robots')).toBe('noindex, follow')
  })

  it('escapes a hostile title everywhere it appears', async () => {
    const title = 'Evil </script><script>alert(1)</script> & "cart" <img src=x onerror=alert(2)>'
    const [cart] = await server.db.sql<{ slug: string }[]>`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url)
      values ('evil-cart', 'evil-cart', ${title}, ${'<b>bold</b>'}, 1000, '/images/carts/x.svg')
      returning slug
    `
    const page = await get(`/vehicle/${cart!.slug}`)
    expect(page.status).toBe(200)
    expect(page.html).not.toContain('<script>alert(1)')
    expect(page.html).not.toContain('<img src=x')
    expect(page.html).not.toContain('<b>bold</b>')
    // The only script that runs is ours: the loader, the one the policy allows by its hash
    // (host/server/headers.test.ts).
    const scripts = Array.from(page.document.querySelectorAll('script:not([type])'))
    expect(scripts).toHaveLength(1)
    expect(scripts[0]!.textContent).not.toContain('alert')
    expect(page.text('h1')).toBe(title)
    expect((page.jsonLd()[0] as { name: string }).name).toBe(title)
    expect(page.text('title')).toBe(`${title} | Jersey Cart Co.`)
    await server.db.sql`delete from golf_carts where slug = 'evil-cart'`
  })
})

describe('other paths', () => {
  it('answer 404 with the not-found page', async () => {
    const page = await get('/no/such/page')
    expect(page.status).toBe(404)
    expectOneH1(page, '404 Page Not Found')
    expect(page.text('main')).toContain('ready to help')
    expect(page.document.querySelector('main a[href="/"]')).not.toBeNull()
    expect(page.document.querySelector('main a[href="/inventory"]')).not.toBeNull()
    expect(page.document.querySelector('main a[href^="tel:"]')).not.toBeNull()
    expect(page.meta('robots')).toBe('noindex, follow')
  })

  it('redirect a trailing slash to the page without it', async () => {
    const res = await fetch(`${server.url}/inventory/`, { redirect: 'manual' })
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/inventory')
  })

  it('never redirect a trailing slash to another site, however the path normalises (issue #26)', async () => {
    // Sent as written (a browser would normalise first; curl --path-as-is and proxies do not).
    const locationOf = (path: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        request(`${server.url}/`, { path }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.headers.location))
        })
          .on('error', reject)
          .end()
      })
    for (const path of ['/x/..//evil.test/', '/%2e%2e//evil.test/', '/inventory/./..//evil.test//', '/x/..///evil.test/?a=1']) {
      const location = await locationOf(path)
      expect(location, path).toMatch(/^\/evil\.test(\?a=1)?$/)
    }
  })

  it('keep unknown API paths as JSON', async () => {
    const res = await fetch(`${server.url}/api/nope`)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/json/)
  })

  it('send the data for hydration as a data block, not a script', async () => {
    const [cart] = await server.db.sql<{ slug: string; title: string }[]>`select slug, title from golf_carts where status = 'available' order by id limit 1`
    const page = await get(`/contact?cart=${cart!.slug}`)
    const state = page.document.querySelector('script#gc-state')
    expect(state?.getAttribute('type')).toBe('application/json')
    const data = JSON.parse(state!.textContent)
    expect(data.queries[0].state.data.title).toBe(cart!.title)
  })
})

describe('the contact form without JavaScript', () => {
  const post = (fields: Record<string, string>) =>
    fetch(`${server.url}/contact`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    })

  it('stores the lead and thanks the visitor after a redirect', async () => {
    const res = await post({ firstName: 'Plain', lastName: 'Form', email: 'plain.form@example.com', interest: 'rentals', message: 'No JS here', cartSlug: '2025-denago-ev-city', sourceLabel: 'dealer-site' })
    expect(res.status).toBe(303)
    // The quote is sent: the thank-you's form is about no cart, so a second message is not filed under it.
    expect(res.headers.get('location')).toBe('/contact?sent=1#send-message')
    const [row] = await server.db.sql`select interest, cart_title, source_label from contact_inquiries where email = 'plain.form@example.com'`
    expect(row).toEqual({ interest: 'rentals', cartTitle: '2025 Denago EV City', sourceLabel: 'dealer-site' })
    const thanks = await get('/contact?sent=1')
    expect(thanks.text('.notice--success')).toBe("Message sent successfully! We'll get back to you within 24 hours.")
    expect(thanks.document.querySelector('input[name="cartSlug"]')?.getAttribute('value')).toBe('')
    expect(thanks.text('.gc-form__about')).toBeUndefined()
  })

  it('shows the problems beside their fields and keeps everything typed', async () => {
    const res = await post({ firstName: 'Kept', lastName: '', email: 'not-an-email', phone: '(609) 555-0101', message: 'Please keep this' })
    expect(res.status).toBe(400)
    const page = parsePage(res.status, await res.text())
    expect(page.document.querySelector<HTMLInputElement>('input[name="firstName"]')?.getAttribute('value')).toBe('Kept')
    expect(page.document.querySelector<HTMLInputElement>('input[name="phone"]')?.getAttribute('value')).toBe('(609) 555-0101')
    expect(page.text('textarea[name="message"]')).toBe('Please keep this')
    expect(page.all('.gc-field__error')).toEqual(['Last name is required', 'Enter a valid email address, like name@example.com'])
    expect(page.document.querySelector('input[name="email"]')?.getAttribute('aria-invalid')).toBe('true')
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/)
  })

  it('shows the rate limit on the page, with everything typed kept', async () => {
    const limited = await startTestServer('pglite', { LEAD_RATE_LIMIT: '1', LOG_LEVEL: 'silent' }, { site: true })
    try {
      const send = (email: string) =>
        fetch(`${limited.url}/contact`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ firstName: 'Twice', lastName: 'Sent', email, message: 'Keep me', cartSlug: '2025-denago-ev-city' }),
        })
      expect((await send('first@example.com')).status).toBe(303)
      const res = await send('second@example.com')
      expect(res.status).toBe(429)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      const page = parsePage(res.status, await res.text())
      expect(page.text('.notice')).toMatch(/^Your message was not sent\. Too many messages from this address\. Please try again in \d+ minutes?, or call \(888\) 555-0100\.$/)
      expect(page.document.querySelector('input[name="email"]')?.getAttribute('value')).toBe('second@example.com')
      expect(page.text('textarea[name="message"]')).toBe('Keep me')
      const rows = await limited.db.sql`select email from contact_inquiries where email in ('first@example.com', 'second@example.com')`
      expect(rows.map((r) => r.email)).toEqual(['first@example.com'])
    } finally {
      await limited.close()
    }
  })

  it('answers an unexpected failure with our sentence, never the database text, and keeps the form', async () => {
    const broken = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
    try {
      // A fault nobody planned for: every new inquiry now breaks a constraint.
      await broken.db.sql`alter table contact_inquiries add constraint test_fault check (false) not valid`
      const res = await fetch(`${broken.url}/contact`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ firstName: 'Kept', lastName: 'Safe', email: 'kept@example.com', message: 'Still here' }),
      })
      expect(res.status).toBe(500)
      const html = await res.text()
      expect(html).not.toMatch(/constraint|test_fault|contact_inquiries/)
      const page = parsePage(res.status, html)
      expect(page.text('.notice')).toMatch(/^Your message was not sent\. Something went wrong on our side\./)
      expect(page.document.querySelector('input[name="email"]')?.getAttribute('value')).toBe('kept@example.com')
      expect(page.text('textarea[name="message"]')).toBe('Still here')
    } finally {
      await broken.close()
    }
  })

  it('posts to the page itself, so it works before the script has loaded', async () => {
    const page = await get('/contact')
    const form = page.document.querySelector('form.gc-form')
    expect(form?.getAttribute('method')).toBe('post')
    expect(form?.getAttribute('action')).toBe('/contact#send-message')
    expect(page.document.getElementById('send-message')?.contains(form)).toBe(true)
  })
})

describe('sitemap and robots', () => {
  it('list every page, including all 42 county pages and every cart', async () => {
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text()
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    const { carts, total } = await (await fetch(`${server.url}/trpc/cart.list`)).json().then((r) => r.result.data)
    expect(locs).toEqual(expect.arrayContaining([`${siteUrl}/`, `${siteUrl}/inventory`, `${siteUrl}/terms-of-service`]))
    expect(locs.filter((l) => l!.endsWith('-county-golf-carts'))).toHaveLength(21)
    expect(locs.filter((l) => l!.endsWith('-county-golf-cart-rentals'))).toHaveLength(21)
    expect(locs.filter((l) => l!.includes('/vehicle/'))).toHaveLength(total)
    expect(locs).toContain(`${siteUrl}/vehicle/${carts[0].slug}`)
  })

  it('robots.txt points to the sitemap', async () => {
    const text = await (await fetch(`${server.url}/robots.txt`)).text()
    expect(text).toContain(`Sitemap: ${siteUrl}/sitemap.xml`)
    expect(text).toContain('Allow: /')
  })
})
