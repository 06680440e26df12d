import { TRPCError } from '@trpc/server'
import { addDays, type Day, formatDay } from '../../domain/calendar-days.ts'
import { type CartType, cartTypes, deliveryEstimate, type PlanKey, rentalCartType, rentalPlan } from '../../domain/rental-plans.ts'
import { type RentalQuote, type RentalQuoteInput, type RentalRequest, type RentalRequestDetails, rentalEndDate } from '../../domain/rental-request.ts'
import type { Changes } from '../db/changes.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { fieldRefused } from '../http/errors.ts'
import { newJerseyZip } from './zip-codes.ts'
import { recordFirstResponse } from '../leads/first-response.ts'

/**
 * The rental fleet and its calendar (PRODUCT.md, "rental calendar"): requests are stored with their
 * lead; confirming one reserves a cart of its type for its days, refused in the same transaction
 * when the fleet is full. The public quote reads the same rows, so what a visitor is told is
 * free is what staff see free.
 */
export interface PricedRental extends RentalRequest {
  endDate: Day
  price: number
  delivery?: { showroom: string; miles: number; fee: number }
}

/** A stored request (domain/rental-request.ts names its fields). */
export type StoredRentalRequest = RentalRequestDetails

/**
 * Prices a request before it is stored: the plan's price, the end date, and for a delivery the
 * fee from the nearest showroom. A delivery ZIP outside New Jersey is refused beside its field.
 */
export async function priceRental(request: RentalRequest): Promise<PricedRental> {
  const plan = rentalPlan(request.cartType, request.plan)
  const endDate = rentalEndDate(request.startDate, request.plan)
  if (request.pickup === 'showroom') {
    return { ...request, street: undefined, town: undefined, zip: undefined, endDate, price: plan.amount }
  }
  const zip = newJerseyZip(request.zip ?? '')
  if (!zip.found) throw fieldRefused('rental.zip', zip.refusal)
  const estimate = deliveryEstimate(zip.place)
  return {
    ...request,
    showroom: estimate.showroom.id,
    endDate,
    price: plan.amount,
    delivery: { showroom: estimate.showroom.id, miles: estimate.miles, fee: estimate.fee },
  }
}

/** The quote's part that needs no database: the price, the end date and the delivery estimate. */
export async function priceQuote(input: RentalQuoteInput & { cartType: CartType; plan: PlanKey }): Promise<RentalQuote> {
  const quote: RentalQuote = { cartType: input.cartType, plan: input.plan, price: rentalPlan(input.cartType, input.plan).amount }
  if (input.zip) {
    const zip = newJerseyZip(input.zip)
    if (zip.found) {
      const estimate = deliveryEstimate(zip.place)
      quote.delivery = { showroom: estimate.showroom.name, miles: estimate.miles, fee: estimate.fee }
    } else quote.delivery = { refused: zip.refusal }
  }
  if (input.startDate) {
    quote.startDate = input.startDate
    quote.endDate = rentalEndDate(input.startDate, input.plan)
  }
  return quote
}

export async function insertRentalRequest(tx: TransactionSql, inquiryId: number, rental: PricedRental): Promise<void> {
  await tx`
    insert into rental_requests
      (inquiry_id, cart_type, plan, start_date, end_date, pickup, showroom, street, town, zip,
       delivery_miles, delivery_fee, price)
    values (${inquiryId}, ${rental.cartType}, ${rental.plan}, ${rental.startDate}, ${rental.endDate}, ${rental.pickup},
      ${rental.showroom ?? null}, ${rental.street || null}, ${rental.town || null}, ${rental.zip || null},
      ${rental.delivery?.miles ?? null}, ${rental.delivery?.fee ?? null}, ${rental.price})
  `
}

const requestColumns = (sql: Sql | TransactionSql) => sql`
  r.cart_type, r.plan, to_char(r.start_date, 'YYYY-MM-DD') as start_date, to_char(r.end_date, 'YYYY-MM-DD') as end_date,
  r.pickup, r.showroom, r.street, r.town, r.zip, r.delivery_miles, r.delivery_fee::float8 as delivery_fee,
  r.price::float8 as price, r.status
`

export async function rentalRequestOf(sql: Sql, inquiryId: number): Promise<StoredRentalRequest | null> {
  const [row] = await sql<StoredRentalRequest[]>`select ${requestColumns(sql)} from rental_requests r where r.inquiry_id = ${inquiryId}`
  return row ?? null
}

/** Per day of [from, to): the confirmed reservations and the open requests of one type. */
interface DayCount {
  day: Day
  confirmed: number
  requested: number
}

async function dayCounts(sql: Sql | TransactionSql, cartType: CartType, from: Day, to: Day, except?: number): Promise<DayCount[]> {
  return sql<DayCount[]>`
    select to_char(d, 'YYYY-MM-DD') as day,
      count(r.inquiry_id) filter (where r.status = 'confirmed')::int as confirmed,
      count(r.inquiry_id) filter (where r.status = 'requested')::int as requested
    from generate_series(${from}::date, ${to}::date - 1, interval '1 day') d
    left join rental_requests r
      on r.cart_type = ${cartType} and r.status <> 'declined' and r.start_date <= d and r.end_date > d
      and r.inquiry_id <> ${except ?? 0}
      and exists (select 1 from contact_inquiries i where i.id = r.inquiry_id and i.spam_reason is null)
    group by d order by d
  `
}

/** The first day on which every cart of the type is reserved, if any. */
function firstFullDay(days: readonly DayCount[], fleet: number): Day | undefined {
  return days.find((d) => d.confirmed >= fleet)?.day
}

export interface RentalCalendar {
  from: Day
  to: Day
  fleet: Record<CartType, number>
  /** Per cart type, per day of [from, to). */
  days: Record<CartType, DayCount[]>
  /** Every request (but declined and spam) that overlaps the days, by start date. */
  requests: CalendarRequest[]
}

export interface CalendarRequest extends StoredRentalRequest {
  inquiryId: number
  name: string
  phone: string | null
  email: string
  /** The renter's deposit (PRODUCT.md, "after the hold"): asked for (a link sent), paid, or refunded; null when none was asked. */
  deposit: 'asked' | 'paid' | 'refunded' | null
}

/**
 * A confirmed request's lead is answered, in the confirmation's transaction: a New lead becomes
 * Contacted (so it neither shows "New, not answered" nor escalates), and its first response is
 * set if it had none, by whoever confirmed it.
 */
async function answered(tx: TransactionSql, inquiryId: number, actor: Actor): Promise<void> {
  const [lead] = await tx<{ status: string }[]>`select status from contact_inquiries where id = ${inquiryId} for update`
  if (lead) await recordFirstResponse(tx, { id: inquiryId, status: lead.status }, actor, new Date())
}

export function createRentalStore(sql: Sql, changes: Changes) {
  const fleetOf = async (db: Sql | TransactionSql, lock = false) => {
    const rows = await db<{ cartType: CartType; carts: number }[]>`
      select cart_type, carts from rental_fleet order by cart_type ${lock ? db`for update` : db``}
    `
    return Object.fromEntries(cartTypes.map((type) => [type, rows.find((r) => r.cartType === type)?.carts ?? 0])) as Record<CartType, number>
  }
  const changed = () => changes.notify('rental_requests')

  /** Locks the rows that guard one status change, so two confirmations of one type take turns. */
  const lockForChange = async (tx: TransactionSql, types: readonly CartType[]) => {
    // Fleet rows first, in one order, then the request: every writer locks in the same order.
    const locked = [...new Set(types)].sort()
    const fleet = await tx<{ cartType: CartType; carts: number }[]>`
      select cart_type, carts from rental_fleet where cart_type in ${tx(locked)} order by cart_type for update
    `
    return Object.fromEntries(fleet.map((r) => [r.cartType, r.carts])) as Partial<Record<CartType, number>>
  }

  const current = async (tx: TransactionSql, inquiryId: number) => {
    const [row] = await tx<StoredRentalRequest[]>`
      select ${requestColumns(tx)} from rental_requests r where r.inquiry_id = ${inquiryId} for update
    `
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: `Lead ${inquiryId} has no rental request` })
    return row
  }

  /** Refuses a reservation that would take more carts than the fleet has on any of its days. */
  const ensureRoom = async (tx: TransactionSql, inquiryId: number, request: Pick<StoredRentalRequest, 'cartType' | 'startDate' | 'endDate'>, fleet: number) => {
    const days = await dayCounts(tx, request.cartType, request.startDate, request.endDate, inquiryId)
    const full = days.find((d) => d.confirmed + 1 > fleet)
    if (full) {
      const title = rentalCartType(request.cartType).title
      throw new TRPCError({
        code: 'CONFLICT',
        message: `Not confirmed: all ${fleet} ${title} ${fleet === 1 ? 'cart is' : 'carts are'} already reserved on ${formatDay(full.day)}. Change the dates or the cart, or decline the request.`,
      })
    }
  }

  return {
    /**
     * What the request form shows: the plan's price, the end date, the delivery estimate for a
     * ZIP, and whether a cart of the type is free on every day (confirmed reservations only:
     * a request holds nothing until staff confirm it).
     */
    async quote(input: RentalQuoteInput & { cartType: CartType; plan: PlanKey }): Promise<RentalQuote> {
      const quote = await priceQuote(input)
      if (quote.startDate && quote.endDate) {
        const [fleet, days] = await Promise.all([fleetOf(sql), dayCounts(sql, input.cartType, quote.startDate, quote.endDate)])
        const full = firstFullDay(days, fleet[input.cartType])
        quote.availability = full ? { free: false, firstFullDay: full } : { free: true }
      }
      return quote
    },

    fleet: () => fleetOf(sql),

    /** The fleet and, per day of [from, from + days), every type's reservations and requests. */
    async calendar(from: Day, days: number): Promise<RentalCalendar> {
      const to = addDays(from, days)
      const [fleet, counts, requests] = await Promise.all([
        fleetOf(sql),
        Promise.all(cartTypes.map((type) => dayCounts(sql, type, from, to))),
        sql<CalendarRequest[]>`
          select r.inquiry_id, i.first_name || ' ' || i.last_name as name, i.phone, i.email, ${requestColumns(sql)},
            (select case d.status when 'open' then 'asked' when 'paid' then 'paid' else 'refunded' end from deposits d
              where d.kind = 'rental' and d.inquiry_id = r.inquiry_id order by d.id desc limit 1) as deposit
          from rental_requests r join contact_inquiries i on i.id = r.inquiry_id
          where r.status <> 'declined' and i.spam_reason is null and r.start_date < ${to} and r.end_date > ${from}
          order by r.start_date, r.inquiry_id
        `,
      ])
      return { from, to, fleet, days: Object.fromEntries(cartTypes.map((type, i) => [type, counts[i]!])) as Record<CartType, DayCount[]>, requests: [...requests] }
    },

    /**
     * Reserves a cart for the request's days, or refuses (409) when the fleet is full on one of
     * them. Confirming is answering the renter (staff call to confirm, PRODUCT.md "rental
     * requests"), so the lead is answered: Contacted if it was New, and its first response set.
     */
    async confirm(inquiryId: number, actor: Actor): Promise<StoredRentalRequest> {
      const result = await sql.begin(async (tx) => {
        const [peek] = await tx<{ cartType: CartType }[]>`select cart_type from rental_requests where inquiry_id = ${inquiryId}`
        if (!peek) throw new TRPCError({ code: 'NOT_FOUND', message: `Lead ${inquiryId} has no rental request` })
        const fleet = await lockForChange(tx, [peek.cartType])
        const request = await current(tx, inquiryId)
        if (request.status === 'confirmed') return request
        await ensureRoom(tx, inquiryId, request, fleet[request.cartType] ?? 0)
        await tx`update rental_requests set status = 'confirmed', updated_at = now() where inquiry_id = ${inquiryId}`
        await recordChanges(tx, actor, 'lead', inquiryId, [{ action: 'update', field: 'rental.status', before: request.status, after: 'confirmed' }])
        await answered(tx, inquiryId, actor)
        return { ...request, status: 'confirmed' as const }
      })
      changed()
      return result
    },

    /** Declines a request; a confirmed one gives its cart back. */
    async decline(inquiryId: number, actor: Actor): Promise<StoredRentalRequest> {
      const result = await sql.begin(async (tx) => {
        const request = await current(tx, inquiryId)
        if (request.status === 'declined') return request
        await tx`update rental_requests set status = 'declined', updated_at = now() where inquiry_id = ${inquiryId}`
        await recordChanges(tx, actor, 'lead', inquiryId, [{ action: 'update', field: 'rental.status', before: request.status, after: 'declined' }])
        return { ...request, status: 'declined' as const }
      })
      changed()
      return result
    },

    /**
     * Changes a request's cart, plan or start date (what the renter agreed on the phone): the end
     * date and price follow the plan. A confirmed request stays confirmed only if the new days
     * have room, checked in the same transaction; otherwise nothing changes.
     */
    async change(inquiryId: number, to: { cartType: CartType; plan: PlanKey; startDate: Day }, actor: Actor): Promise<StoredRentalRequest> {
      const result = await sql.begin(async (tx) => {
        const [peek] = await tx<{ cartType: CartType }[]>`select cart_type from rental_requests where inquiry_id = ${inquiryId}`
        if (!peek) throw new TRPCError({ code: 'NOT_FOUND', message: `Lead ${inquiryId} has no rental request` })
        const fleet = await lockForChange(tx, [peek.cartType, to.cartType])
        const request = await current(tx, inquiryId)
        const next = {
          ...request,
          ...to,
          endDate: rentalEndDate(to.startDate, to.plan),
          price: rentalPlan(to.cartType, to.plan).amount,
        }
        if (request.status === 'confirmed') await ensureRoom(tx, inquiryId, next, fleet[next.cartType] ?? 0)
        await tx`
          update rental_requests set cart_type = ${next.cartType}, plan = ${next.plan}, start_date = ${next.startDate},
            end_date = ${next.endDate}, price = ${next.price}, updated_at = now()
          where inquiry_id = ${inquiryId}
        `
        const fields = ['cartType', 'plan', 'startDate', 'endDate', 'price'] as const
        await recordChanges(
          tx,
          actor,
          'lead',
          inquiryId,
          fields.filter((f) => request[f] !== next[f]).map((f) => ({ action: 'update' as const, field: `rental.${f}`, before: request[f], after: next[f] })),
        )
        return next
      })
      changed()
      return result
    },

    /**
     * Sets how many carts of a type the dealer rents. Refused when reservations already take more
     * carts than the new count on some day from today on: decline or move them first.
     */
    async setFleet(cartType: CartType, carts: number, actor: Actor, today: Day): Promise<Record<CartType, number>> {
      await sql.begin(async (tx) => {
        const [row] = await tx<{ carts: number }[]>`select carts from rental_fleet where cart_type = ${cartType} for update`
        const [busiest] = await tx<{ day: Day; confirmed: number }[]>`
          select to_char(d, 'YYYY-MM-DD') as day, count(*)::int as confirmed
          from rental_requests r
          join contact_inquiries i on i.id = r.inquiry_id and i.spam_reason is null
          cross join lateral generate_series(greatest(r.start_date, ${today}::date), r.end_date - 1, interval '1 day') d
          where r.cart_type = ${cartType} and r.status = 'confirmed' and r.end_date > ${today}
          group by d order by count(*) desc, d limit 1
        `
        if (busiest && busiest.confirmed > carts) {
          const title = rentalCartType(cartType).title
          throw new TRPCError({
            code: 'CONFLICT',
            message: `Not changed: ${busiest.confirmed} ${title} reservations are confirmed on ${formatDay(busiest.day)}. Move or decline some of them first.`,
          })
        }
        await tx`
          insert into rental_fleet (cart_type, carts) values (${cartType}, ${carts})
          on conflict (cart_type) do update set carts = excluded.carts, updated_at = now()
        `
        await recordChanges(tx, actor, 'rental-fleet', cartType, [{ action: 'update', field: 'carts', before: row?.carts ?? 0, after: carts }])
      })
      changed()
      return fleetOf(sql)
    },
  }
}

export type RentalStore = ReturnType<typeof createRentalStore>
