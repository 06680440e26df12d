import { createChanges } from '../../api/db/changes.ts'
import { createWriteRefusals } from '../../api/db/write-refusals.ts'
import { productionDeadlines } from '../../api/db/unavailable.ts'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
import type { GolfCart, GolfCartDetail } from '../../domain/golf-cart.ts'
import { cartPicture } from '../../domain/cart-pictures.ts'
import { cardSpecs } from '../../domain/cart-facts.ts'
import type { InquiryReceipt } from '../../domain/inquiry.ts'
import { alternativeSlug, slugify } from '../../domain/slug.ts'
import type { CartQuery } from '../../api/carts/cart-store.ts'
import type { Services } from '../../api/services.ts'
import type { NewLead } from '../../api/inquiries/inquiry-store.ts'
import type { WatchSubject } from '../../api/alerts/watch-store.ts'
import { priceQuote } from '../../api/rentals/rental-store.ts'
import { requestInterest } from '../../domain/lead-input.ts'
import type { RentalQuote } from '../../domain/rental-request.ts'
import type { DepositOffer, ValidDeposit } from '../../domain/deposits.ts'
import { defaultSlotRules, freeSlots, type ValidAppointment } from '../../domain/appointments.ts'

/**
 * In-memory stand-ins for the stores, so component tests run the real tRPC router (validation,
 * errors) without a database. `hold()` keeps calls waiting, to see loading states.
 */
export function seedCarts(count = startingInventory().length): GolfCartDetail[] {
  const inventory = startingInventory().map((row) => row.record)
  return Array.from({ length: count }, (_, i) => {
    const seed = inventory[i % inventory.length]!
    const title = i < inventory.length ? seed.title : `${seed.title} Unit ${i + 1}`
    return {
      id: i + 1,
      slug: slugify(title),
      title,
      description: seed.description,
      price: seed.price,
      imageUrl: cartPicture(seed),
      category: 'new',
      status: 'available',
      location: seed.location,
      featured: seed.featured,
      available: true,
      year: null,
      make: null,
      model: null,
      trim: null,
      vin: null,
      stockNumber: `GC-${String(i + 1).padStart(4, '0')}`,
      color: null,
      seats: null,
      battery: null,
      streetLegal: false,
      lifted: false,
      msrp: null,
      soldAt: null,
      holdUntil: null,
      photo: null,
      photos: [],
      specs: cardSpecs({ title }),
      // Listed long ago: a test that means a Just arrived badge lists its own cart.
      listedAt: '2026-01-05T15:00:00.000Z',
    }
  })
}

export interface FakeServices extends Services {
  calls: { method: string; input: unknown }[]
  inquiries: Services['inquiries'] & { stored: NewLead[] }
  /** Price alerts asked for, as the store was given them. */
  watches: Services['watches'] & { requested: { email: string; subject: WatchSubject }[] }
  /** Calls wait until `release()`; returns the release function. */
  hold(): () => void
  /** The next calls fail with this error until `failWith(undefined)`. */
  failWith(error: Error | undefined): void
  /** What the rental quote says of availability (free by default). */
  setAvailability(availability: RentalQuote['availability']): void
  /** Bookings made, as the store was given them. */
  appointments: Services['appointments'] & { booked: ValidAppointment[] }
  /** Deposits offered (Stripe configured), or not (null, the default). */
  setDepositOffer(offer: DepositOffer | null): void
}

export function fakeServices(carts: GolfCartDetail[] = seedCarts()): FakeServices {
  const calls: FakeServices['calls'] = []
  let gate: Promise<void> = Promise.resolve()
  let failure: Error | undefined
  const stored: NewLead[] = []
  const requested: FakeServices['watches']['requested'] = []
  let availability: RentalQuote['availability'] = { free: true }
  let depositOffer: DepositOffer | null = null
  const booked: ValidAppointment[] = []
  const step = async (method: string, input: unknown) => {
    calls.push({ method, input })
    await gate
    if (failure) throw failure
  }
  const summary = ({ id, slug, title, description, price, imageUrl, category, status, location, photos, specs, listedAt }: GolfCartDetail): GolfCart => ({
    photo: photos[0] ?? null,
    id,
    slug,
    title,
    description,
    price,
    imageUrl,
    category,
    status,
    location,
    specs,
    listedAt,
  })

  return {
    calls,
    hold() {
      let release!: () => void
      gate = new Promise((resolve) => (release = resolve))
      return () => {
        gate = Promise.resolve()
        release()
      }
    },
    failWith(error) {
      failure = error
    },
    setAvailability(value) {
      availability = value
    },
    setDepositOffer(offer) {
      depositOffer = offer
    },
    deposits: {
      ...(notUsedByWidgets('deposits') as Services['deposits']),
      offer: () => depositOffer,
      async start(input: ValidDeposit) {
        await step('startDeposit', input)
        return { url: `https://checkout.stripe.test/c/pay/cs_test_${input.cartId}` }
      },
    },
    rentalDeposits: notUsedByWidgets('rentalDeposits') as Services['rentalDeposits'],
    staffAppointments: notUsedByWidgets('staffAppointments') as Services['staffAppointments'],
    appointments: {
      ...(notUsedByWidgets('appointments') as Services['appointments']),
      rules: defaultSlotRules,
      booked,
      async slots(input) {
        await step('slots', input)
        const starts = freeSlots({ from: input.from, days: input.days ?? 7, now: Date.now(), rules: defaultSlotRules, booked: new Map() })
        return { showroom: input.showroom, kind: input.kind, minutes: defaultSlotRules.minutes, slots: starts.map((at) => ({ startsAt: new Date(at).toISOString() })) }
      },
      async book(input: ValidAppointment) {
        await step('book', input)
        booked.push(input)
        const endsAt = new Date(Date.parse(input.startsAt) + defaultSlotRules.minutes * 60_000).toISOString()
        return { id: booked.length, leadId: booked.length, showroom: input.showroom, kind: input.kind, startsAt: new Date(input.startsAt).toISOString(), endsAt }
      },
    },
    staffDeposits: notUsedByWidgets('staffDeposits') as Services['staffDeposits'],
    rentals: {
      ...(notUsedByWidgets('rentals') as Services['rentals']),
      async quote(input) {
        await step('quote', input)
        const quote = await priceQuote(input)
        return quote.startDate ? { ...quote, availability } : quote
      },
    },
    carts: {
      async list(query: CartQuery) {
        await step('list', query)
        const matching = carts.filter((c) => !query.category || query.category === 'all' || c.category === query.category)
        const offset = query.offset ?? 0
        const page = matching.slice(offset, query.limit === undefined ? undefined : offset + query.limit)
        return { carts: page.map(summary), total: matching.length }
      },
      async featured(limit?: number) {
        await step('featured', limit)
        return carts.filter((c) => c.featured).slice(0, limit).map(summary)
      },
      async bySlug(slug: string) {
        await step('bySlug', slug)
        return carts.find((c) => c.slug === slug) ?? carts.find((c) => alternativeSlug(c.title) === slug)
      },
      async listingCarts() {
        await step('listingCarts', undefined)
        return carts.filter((c) => c.status === 'available')
      },
      async similar(cart: { id: number; price: number }, limit = 3) {
        await step('similar', cart)
        return carts
          .filter((c) => c.id !== cart.id && c.status !== 'sold')
          .sort((a, b) => Math.abs(a.price - cart.price) - Math.abs(b.price - cart.price))
          .slice(0, limit)
          .map(summary)
      },
      async add() {
        throw new Error('not used by the widgets')
      },
    },
    changes: createChanges(),
    writeRefusals: createWriteRefusals(),
    soldVisibleDays: 14,
    deadlines: productionDeadlines,
    staff: notUsedByWidgets('staff') as Services['staff'],
    photos: notUsedByWidgets('photos') as Services['photos'],
    texts: notUsedByWidgets('texts') as Services['texts'],
    inquiries: {
      stored,
      async add(inquiry: NewLead): Promise<InquiryReceipt> {
        await step('submit', inquiry)
        stored.push(inquiry)
        return { id: stored.length, createdAt: new Date().toISOString(), interest: requestInterest(inquiry) ?? (inquiry.interest || null) }
      },
      async byId() {
        return undefined
      },
    },
    watches: {
      ...(notUsedByWidgets('watches') as Services['watches']),
      requested,
      async request(email: string, subject: WatchSubject) {
        await step('watch', { email, subject })
        requested.push({ email, subject })
      },
    },
    // No limit in component tests; api/http/floods.test.ts tests the real one.
    leadRateLimit: {
      async hit() {
        return { allowed: true }
      },
    },
    alertRateLimit: {
      async hit() {
        return { allowed: true }
      },
    },
  }
}

/** Services the widgets never reach: any use is a test bug, said loudly. */
function notUsedByWidgets(name: string): unknown {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`${name}.${String(property)} is not used by the widgets`)
      },
    },
  )
}
