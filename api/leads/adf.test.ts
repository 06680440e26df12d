import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import type { StoredInquiry } from '../inquiries/inquiry-store.ts'
import { adfDocument, xml } from './adf.ts'

const lead: StoredInquiry = {
  id: 42,
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  phone: '(609) 555-0123',
  interest: 'evolution',
  message: 'Is the D6 in stock in white?',
  sourceUrl: 'https://carts.example/vehicle/2025-evolution-d6-max-gt4',
  sourceLabel: 'dealer-site',
  cartSlug: '2025-evolution-d6-max-gt4',
  cartTitle: '2025 Evolution D6 Max GT4',
  cartPrice: 14995,
  cartStockNumber: 'GC-0007',
  cartVin: null,
  cartYear: null,
  cartMake: null,
  cartModel: null,
  createdAt: new Date('2026-11-21T08:04:05.000Z'),
  repeatOf: null,
}

const parse = (doc: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'name' }).parse(doc)

describe('ADF 1.0 document', () => {
  it('starts with the XML declaration, then the adf processing instruction', () => {
    const lines = adfDocument(lead, 'https://carts.example').split('\n')
    expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>')
    expect(lines[1]).toBe('<?adf version="1.0"?>')
    expect(XMLValidator.validate(adfDocument(lead, 'https://carts.example'))).toBe(true)
  })

  it('has one prospect with the request date, customer, vehicle, vendor and provider', () => {
    const { adf } = parse(adfDocument(lead, 'https://carts.example'))
    const prospect = adf.prospect
    expect(prospect['@status']).toBe('new')
    expect(prospect.requestdate).toBe('2026-11-21T08:04:05.000Z')
    expect(prospect.vehicle).toMatchObject({
      '@interest': 'buy',
      '@status': 'new',
      year: 2025,
      make: 'Evolution',
      model: 'D6 Max GT4',
      price: { '#text': 14995, '@type': 'asking', '@currency': 'USD' },
    })
    expect(prospect.customer.contact.name).toEqual([
      { '#text': 'Ann', '@part': 'first' },
      { '#text': 'Lee', '@part': 'last' },
    ])
    expect(prospect.customer.contact.email).toBe('ann@example.com')
    expect(prospect.customer.contact.phone['#text']).toBe('(609) 555-0123')
    expect(prospect.customer.comments).toContain('Is the D6 in stock in white?')
    expect(prospect.vendor.vendorname).toBe('Jersey Cart Co.')
    expect(prospect.provider.url).toBe('https://carts.example')
  })

  it('names the cart by VIN and stock number, with the record\'s year, make and model over the title\'s', () => {
    const street = { ...lead, cartVin: '5ZEVD6M4XS0000001', cartStockNumber: 'EV-1', cartYear: 2026, cartMake: 'Evolution', cartModel: 'D6 Max GT4 LSV' }
    const { adf } = parse(adfDocument(street, 'https://carts.example'))
    expect(adf.prospect.vehicle).toMatchObject({ year: 2026, make: 'Evolution', model: 'D6 Max GT4 LSV', vin: '5ZEVD6M4XS0000001', stock: 'EV-1' })
    const { adf: noVin } = parse(adfDocument(lead, 'https://carts.example'))
    expect(noVin.prospect.vehicle.vin).toBeUndefined()
    expect(noVin.prospect.vehicle.stock).toBe('GC-0007')
  })

  it('leaves the vehicle out when the lead names no cart, and puts rentals in the comments', () => {
    const rental = { ...lead, interest: 'rentals' as const, cartSlug: null, cartTitle: null, cartPrice: null }
    const { adf } = parse(adfDocument(rental, 'https://carts.example'))
    expect(adf.prospect.vehicle).toBeUndefined()
    expect(adf.prospect.customer.comments).toContain('Interest: Rentals')
  })

  it('escapes markup and drops characters XML cannot carry', () => {
    const hostile = {
      ...lead,
      firstName: '<Ann> & "Co"',
      message: `]]></comments><script>x</script>\u0001\u0007 '' \uD800`,
    }
    const doc = adfDocument(hostile, 'https://carts.example')
    expect(XMLValidator.validate(doc)).toBe(true)
    expect(parse(doc).adf.prospect.customer.contact.name[0]['#text']).toBe('<Ann> & "Co"')
    expect(doc).not.toContain('<script>')
    expect(xml('a\u0000b\u001Fc')).toBe('abc')
  })
})
