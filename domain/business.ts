/**
 * Every business fact the site, the widgets, the emails and the structured data show. Another
 * dealer rebrands by editing this one file (docs/PRODUCT.md, "Business facts"). The numbers are
 * fictional 555-01xx placeholders until the dealer supplies real ones.
 */
export interface Phone {
  /** As printed: "(888) 555-0100". */
  display: string
  /** For `tel:` links: "+18885550100". */
  tel: string
}

export interface Address {
  street: string
  city: string
  region: 'NJ'
  postalCode: string
}

export interface Location {
  id: string
  name: string
  /** Absent for the general New Jersey entry, which serves every county from the showrooms. */
  address?: Address
  phone: Phone
  socialUrl: string
  websiteUrl: string
  /** Showroom position, for the map pins and structured data. */
  geo?: { latitude: number; longitude: number }
}

export interface OpeningHours {
  days: string
  /** Schema.org day names, for structured data. */
  dayOfWeek: readonly string[]
  opens?: string
  closes?: string
}

function phone(display: string): Phone {
  return { display, tel: `+1${display.replace(/\D/g, '')}` }
}

export const business = {
  name: 'Jersey Cart Co.',
  legalName: 'Jersey Cart Co. LLC',
  tagline: "New Jersey's electric golf cart dealer",
  foundedYear: 2009,
  tollFree: phone('(888) 555-0100'),
  email: 'sales@example.com',
  hours: [
    {
      days: 'Mon-Fri',
      dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      opens: '09:00',
      closes: '17:00',
    },
    { days: 'Sat', dayOfWeek: ['Saturday'], opens: '09:00', closes: '17:00' },
    { days: 'Sun', dayOfWeek: ['Sunday'] },
  ] satisfies readonly OpeningHours[],
  claims: {
    yearsExperience: '15+',
    happyCustomers: '500+',
    /**
     * A star rating is shown only with its source and number of reviews (PRODUCT.md, "honest
     * claims"): set `{ stars, reviews, source, url }` from a real review page, else null. How
     * many carts are in stock is never typed here: the pages count the inventory.
     */
    rating: null as null | { stars: number; reviews: number; source: string; url: string },
    countiesServed: 21,
    replyWithinHours: 24,
  },
  brands: ['Club Car', 'EZ-GO', 'Denago', 'Evolution', 'Tomberlin', 'Swift EV', 'Icon'],
  /** The parent dealer network's New Jersey page, linked from every footer. */
  networkUrl: 'https://www.example.com/dealer-network/new-jersey',
  socialUrl: 'https://www.facebook.com/example-jersey-cart-co',
  locations: [
    {
      id: 'ocean-view',
      name: 'Ocean View',
      address: { street: '101 NJ-50', city: 'Ocean View', region: 'NJ', postalCode: '08230' },
      phone: phone('(609) 555-0111'),
      socialUrl: 'https://www.facebook.com/example-jersey-cart-co-ocean-view',
      websiteUrl: 'https://www.example.com/dealer-network/locations/ocean-view-nj',
      geo: { latitude: 39.1887, longitude: -74.7249 },
    },
    {
      id: 'bayville',
      name: 'Bayville',
      address: {
        street: '155 Atlantic City Blvd',
        city: 'Bayville',
        region: 'NJ',
        postalCode: '08721',
      },
      phone: phone('(732) 555-0122'),
      socialUrl: 'https://www.facebook.com/example-jersey-cart-co-bayville',
      websiteUrl: 'https://www.example.com/dealer-network/locations/bayville-nj',
      geo: { latitude: 39.9093, longitude: -74.1571 },
    },
    {
      id: 'waretown',
      name: 'Waretown',
      address: { street: '526 US-9', city: 'Waretown', region: 'NJ', postalCode: '08758' },
      phone: phone('(609) 555-0133'),
      socialUrl: 'https://www.facebook.com/example-jersey-cart-co-waretown',
      websiteUrl: 'https://www.example.com/dealer-network/locations/waretown-nj',
      geo: { latitude: 39.7915, longitude: -74.1951 },
    },
    {
      id: 'pleasantville',
      name: 'Pleasantville',
      address: {
        street: '7000 Black Horse Pike',
        city: 'Pleasantville',
        region: 'NJ',
        postalCode: '08232',
      },
      phone: phone('(609) 555-0144'),
      socialUrl: 'https://www.facebook.com/example-jersey-cart-co-pleasantville',
      websiteUrl: 'https://www.example.com/dealer-network/locations/pleasantville-nj',
      geo: { latitude: 39.3898, longitude: -74.5243 },
    },
    {
      id: 'new-jersey',
      name: 'New Jersey',
      phone: phone('(888) 555-0100'),
      socialUrl: 'https://www.facebook.com/example-jersey-cart-co',
      websiteUrl: 'https://www.example.com/dealer-network/new-jersey',
    },
  ] satisfies readonly Location[] as readonly Location[],
} as const

/** The showrooms: every location with a street address (the general New Jersey entry has none). */
export const showrooms: readonly Location[] = business.locations.filter((l) => l.address)

/**
 * A cart's `location` (PRODUCT.md, "cart location"): the key of the showroom it stands at, one of
 * these. The feeds use it as the store code, so a key, once carts carry it, is not renamed.
 */
export const showroomKeys: readonly string[] = showrooms.map((s) => s.id)

/**
 * Where a cart stands when nobody said: the first showroom. Every feed and structured-data offer
 * named it for every cart before carts had a location (migration 0018 places them there).
 */
export const defaultShowroom: Location = showrooms[0]!

/** The showroom with this key, if there is one. */
export function showroomByKey(key: string): Location | undefined {
  return showrooms.find((s) => s.id === key)
}

/** What the general entry shows instead of a street address (docs/PRODUCT.md, "Business facts"). */
export const statewideServiceArea = `Serving all ${business.claims.countiesServed} New Jersey counties`

const smallNumbers = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']

/** "four": how the site's sentences write a small count ("our four showrooms"); digits above ten. */
export function inWords(count: number): string {
  return smallNumbers[count] ?? String(count)
}

/** "Ocean View, Bayville and Pleasantville": a list as a sentence says it. */
export function listInWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 2) return items.join(` ${conjunction} `)
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`
}

/** "Monday to Saturday": the days the showrooms open, first to last. */
export function openDays(): string {
  const days = business.hours.filter((h) => h.opens).flatMap((h) => h.dayOfWeek)
  return days.length > 1 ? `${days[0]} to ${days[days.length - 1]}` : (days[0] ?? '')
}

export function formatAddress(address: Address): string {
  return `${address.street}, ${address.city}, ${address.region} ${address.postalCode}`
}

/** A maps search for the address: a location's "maps" link, no API key needed. */
export function mapsSearchUrl(location: Location): string {
  const query = location.address
    ? `${business.name} ${formatAddress(location.address)}`
    : `${business.name} New Jersey`
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`
}

export function formatHours(hours: OpeningHours): string {
  if (!hours.opens || !hours.closes) return `${hours.days}: Closed`
  return `${hours.days}: ${clock(hours.opens)}-${clock(hours.closes)}`
}

function clock(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number)
  const suffix = h >= 12 ? 'PM' : 'AM'
  const hour = h % 12 === 0 ? 12 : h % 12
  return m === 0 ? `${hour}${suffix}` : `${hour}:${String(m).padStart(2, '0')}${suffix}`
}
