import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { TRPCError } from '@trpc/server'
import {
  type AppointmentKind,
  appointmentKindLabels,
  type AppointmentStatus,
  type BookingReceipt,
  freeSlots,
  isOfferedStart,
  newJerseyDay,
  type SlotRules,
  slotTakenMessage,
  slotWhen,
  type ValidAppointment,
} from '../../domain/appointments.ts'
import { business, showroomByKey } from '../../domain/business.ts'
import { routingPools } from '../../domain/dealer-settings.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type NotificationKind, storeLead } from '../inquiries/inquiry-store.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'

/**
 * Appointments (PRODUCT.md, "appointments", "confirmations and reminders"): the free slots of a
 * showroom and kind, and bookings. A booking is a lead (interest `test-drive` or `service`) stored
 * through the one lead path, so it is routed and alerted as any other, and its confirmation is
 * queued in the same transaction. Capacity holds however many book at once: the booking's
 * transaction takes an advisory lock of its slot (showroom, kind, start) before it counts, so
 * bookings of one slot take turns and the (capacity + 1)th sees the others committed.
 *
 * The shopper's link to move or cancel is the booking's id and an HMAC of it under a key kept in
 * the database (as device cookies' are): no account, nothing to store, and any change to the id or
 * the signature is refused.
 */
export type AppointmentMessageKind = 'appointment-confirmation' | 'appointment-reminder' | 'appointment-cancelled'
export const appointmentMessageKinds: readonly AppointmentMessageKind[] = ['appointment-confirmation', 'appointment-reminder', 'appointment-cancelled']

/** Who the audit log names for what a shopper did by their link. */
export const shopperLinkActor: Actor = { id: null, name: 'shopper (booking link)' }

/** The advisory locks of slots are (this, hashtext(slot)); customers' keys use another number. */
const slotLockSpace = 5101

export interface AppointmentFacts {
  id: number
  leadId: number
  showroom: string
  kind: AppointmentKind
  startsAt: Date
  minutes: number
  status: AppointmentStatus
  revision: number
  firstName: string
  lastName: string
  email: string
  phone: string | null
  cartTitle: string | null
}

export interface AppointmentStoreOptions {
  rules: SlotRules
  /** What every lead queues (api/runtime.ts), a booking's as any other's. */
  notifications: readonly NotificationKind[]
  onQueued?(): void
  clock?: () => Date
}

/** The routing pool of a test drive: its cart's brand, as a quote for that cart would be (else `other`). */
function routedAs(kind: AppointmentKind, cartTitle: string | undefined): string | null {
  if (kind === 'service') return 'service'
  if (!cartTitle) return null
  const brand = specificationsFor(cartTitle).brand.toLowerCase()
  return (routingPools as readonly string[]).includes(brand) ? brand : null
}

/** Queues one of a booking's shopper messages in the caller's transaction, once per revision. */
export async function queueAppointmentMessage(tx: TransactionSql, leadId: number, kind: AppointmentMessageKind, appointmentId: number, revision: number): Promise<void> {
  await tx`
    insert into outbox_messages (inquiry_id, kind, appointment_id, details)
    values (${leadId}, ${kind}, ${appointmentId}, ${tx.json({ revision })})
    on conflict do nothing
  `
}

const factsColumns = (sql: Sql | TransactionSql) => sql`
  a.id, a.inquiry_id as lead_id, a.showroom, a.kind, a.starts_at, a.minutes, a.status, a.revision,
  i.first_name, i.last_name, i.email, i.phone, i.cart_title
`

/** A booking with its shopper, in the caller's transaction when given one (`lock`: for update). */
export async function bookingFacts(db: Sql | TransactionSql, id: number, lock = false): Promise<AppointmentFacts | undefined> {
  const [row] = await db<AppointmentFacts[]>`
    select ${factsColumns(db)} from appointments a join contact_inquiries i on i.id = a.inquiry_id
    where a.id = ${id} ${lock ? db`for update of a` : db``}
  `
  return row
}

/** The signing key of booking links, made by the first process that needs it. */
export function createLinkSigner(sql: Sql) {
  let key: Promise<Buffer> | undefined
  async function loadKey(): Promise<Buffer> {
    const stored = async () => (await sql<{ secret: Buffer }[]>`select secret from appointment_link_keys`)[0]?.secret
    const found = await stored()
    if (found) return found
    await sql`insert into appointment_link_keys (secret) values (${randomBytes(32)}) on conflict (id) do nothing`
    return (await stored())!
  }
  const signingKey = () =>
    (key ??= loadKey().catch((error: unknown) => {
      key = undefined
      throw error
    }))
  const mac = (secret: Buffer, id: number) => createHmac('sha256', secret).update(`appointment:${id}`).digest().subarray(0, 24)
  return {
    async sign(id: number): Promise<string> {
      return mac(await signingKey(), id).toString('base64url')
    },
    /** The booking's id when the signature is right for it; undefined for anything else. */
    async verify(id: unknown, signature: unknown): Promise<number | undefined> {
      if (typeof id !== 'string' || typeof signature !== 'string' || !/^\d{1,9}$/.test(id) || !/^[\w-]{32}$/.test(signature)) return undefined
      const given = Buffer.from(signature, 'base64url')
      const right = mac(await signingKey(), Number(id))
      return given.length === right.length && timingSafeEqual(given, right) ? Number(id) : undefined
    },
  }
}

export type LinkSigner = ReturnType<typeof createLinkSigner>

export function createAppointmentStore(sql: Sql, options: AppointmentStoreOptions) {
  const clock = options.clock ?? (() => new Date())
  const { rules } = options
  const links = createLinkSigner(sql)

  /** How many live bookings each start of a showroom and kind holds, between two moments. */
  async function bookedBetween(db: Sql | TransactionSql, showroom: string, kind: AppointmentKind, from: Date, to: Date): Promise<Map<number, number>> {
    const rows = await db<{ startsAt: Date; n: number }[]>`
      select starts_at, count(*)::int as n from appointments
      where showroom = ${showroom} and kind = ${kind} and status <> 'cancelled' and starts_at >= ${from} and starts_at < ${to}
      group by starts_at
    `
    return new Map(rows.map((r) => [r.startsAt.getTime(), r.n]))
  }

  /** Locks the slot for this transaction, then says whether it has room (the caller then books it). */
  async function claimSlot(tx: TransactionSql, showroom: string, kind: AppointmentKind, startsAt: Date, except?: number): Promise<void> {
    const now = clock().getTime()
    if (!isOfferedStart(startsAt.getTime(), now, rules)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'That time is not one we offer: choose a time from the list.' })
    }
    await tx`select pg_advisory_xact_lock(${slotLockSpace}, hashtext(${`${showroom}:${kind}:${startsAt.toISOString()}`}))`
    const [row] = await tx<{ n: number }[]>`
      select count(*)::int as n from appointments
      where showroom = ${showroom} and kind = ${kind} and starts_at = ${startsAt} and status <> 'cancelled' and id <> ${except ?? 0}
    `
    if ((row?.n ?? 0) >= rules.capacity) throw new TRPCError({ code: 'CONFLICT', message: slotTakenMessage })
  }


  const receiptOf = (a: { id: number; leadId: number; showroom: string; kind: AppointmentKind; startsAt: Date; minutes: number }): BookingReceipt => ({
    id: a.id,
    leadId: a.leadId,
    showroom: a.showroom,
    kind: a.kind,
    startsAt: a.startsAt.toISOString(),
    endsAt: new Date(a.startsAt.getTime() + a.minutes * 60_000).toISOString(),
  })

  /** Bookings made or moved within a day of their time get no reminder: the confirmation is it. */
  const remindedAt = (startsAt: Date, now: Date) => (startsAt.getTime() - now.getTime() <= 86_400_000 ? now : null)

  return {
    rules,
    links,
    facts: (id: number) => bookingFacts(sql, id),

    /** `GET /api/appointments/slots`: the free starts of a showroom and kind. */
    async slots(input: { showroom: string; kind: AppointmentKind; from?: string; days?: number }) {
      const now = clock().getTime()
      const days = input.days ?? 7
      const from = input.from ?? newJerseyDay(now)
      const start = new Date(`${from}T00:00:00Z`).getTime() - 86_400_000
      const booked = await bookedBetween(sql, input.showroom, input.kind, new Date(start), new Date(start + (days + 2) * 86_400_000))
      const starts = freeSlots({ from, days, now, rules, booked })
      return {
        showroom: input.showroom,
        kind: input.kind,
        minutes: rules.minutes,
        slots: starts.map((at) => ({ startsAt: new Date(at).toISOString() })),
      }
    },

    /** `POST /api/appointments`: a booking, its lead and its confirmation, or 409 when the slot is full. */
    async book(input: ValidAppointment): Promise<BookingReceipt> {
      const showroom = showroomByKey(input.showroom)!
      const startsAt = new Date(input.startsAt)
      const receipt = await sql.begin(async (tx) => {
        await claimSlot(tx, input.showroom, input.kind, startsAt)
        const [cart] = input.cartId
          ? await tx<{ slug: string; title: string }[]>`select slug, title from golf_carts where id = ${input.cartId} and status <> 'draft'`
          : []
        if (input.cartId && !cart) throw new TRPCError({ code: 'NOT_FOUND', message: `No golf cart has the id ${input.cartId}` })
        const booked = `Booked a ${appointmentKindLabels[input.kind].toLowerCase()} at ${showroom.name} for ${slotWhen(startsAt)}.`
        const { receipt: lead } = await storeLead(
          tx,
          {
            firstName: input.firstName,
            lastName: input.lastName,
            email: input.email,
            phone: input.phone,
            message: input.message ? `${booked}\n\n${input.message}` : booked,
            textConsent: input.textConsent,
            sourceUrl: input.sourceUrl,
            sourceLabel: input.sourceLabel,
            cartSlug: cart?.slug,
            service: input.service,
          },
          options.notifications,
          { interest: input.kind === 'service' ? 'service' : 'test-drive', routeAs: routedAs(input.kind, cart?.title) },
        )
        const [row] = await tx<{ id: number }[]>`
          insert into appointments (inquiry_id, showroom, kind, starts_at, minutes, reminded_at)
          values (${lead.id}, ${input.showroom}, ${input.kind}, ${startsAt}, ${rules.minutes}, ${remindedAt(startsAt, clock())})
          returning id
        `
        await queueAppointmentMessage(tx, lead.id, 'appointment-confirmation', row!.id, 1)
        return receiptOf({ id: row!.id, leadId: lead.id, showroom: input.showroom, kind: input.kind, startsAt, minutes: rules.minutes })
      })
      options.onQueued?.()
      return receipt
    },

    /** The booking a signed link opens, or undefined for a link that is not one of ours. */
    async byLink(id: unknown, signature: unknown): Promise<AppointmentFacts | undefined> {
      const verified = await links.verify(id, signature)
      return verified === undefined ? undefined : bookingFacts(sql, verified)
    },

    /** Moves a booking by its link to another free start; the shopper gets a new confirmation. */
    async move(id: number, startsAtText: string): Promise<AppointmentFacts> {
      const startsAt = new Date(startsAtText)
      const moved = await sql.begin(async (tx) => {
        const booking = await bookingFacts(tx, id, true)
        if (!booking) throw new TRPCError({ code: 'NOT_FOUND', message: 'No such booking' })
        if (booking.status !== 'booked' || booking.startsAt.getTime() <= clock().getTime()) {
          throw new TRPCError({ code: 'CONFLICT', message: `This booking can no longer be moved. Call ${business.tollFree.display} and we will help.` })
        }
        if (booking.startsAt.getTime() === startsAt.getTime()) return booking
        await claimSlot(tx, booking.showroom, booking.kind, startsAt, booking.id)
        const revision = booking.revision + 1
        await tx`
          update appointments set starts_at = ${startsAt}, revision = ${revision}, reminded_at = ${remindedAt(startsAt, clock())}, updated_at = now()
          where id = ${id}
        `
        await recordChanges(tx, shopperLinkActor, 'appointment', id, [{ action: 'update', field: 'startsAt', before: booking.startsAt.toISOString(), after: startsAt.toISOString() }])
        await queueAppointmentMessage(tx, booking.leadId, 'appointment-confirmation', id, revision)
        return { ...booking, startsAt, revision }
      })
      options.onQueued?.()
      return moved
    },

    /** Cancels a booking by its link: its slot is free again and the shopper told. */
    async cancel(id: number): Promise<AppointmentFacts> {
      const cancelled = await sql.begin(async (tx) => {
        const booking = await bookingFacts(tx, id, true)
        if (!booking) throw new TRPCError({ code: 'NOT_FOUND', message: 'No such booking' })
        if (booking.status === 'cancelled') return booking
        if (booking.status !== 'booked') throw new TRPCError({ code: 'CONFLICT', message: 'This visit has already happened.' })
        const revision = booking.revision + 1
        await tx`update appointments set status = 'cancelled', revision = ${revision}, updated_at = now() where id = ${id}`
        await recordChanges(tx, shopperLinkActor, 'appointment', id, [{ action: 'update', field: 'status', before: 'booked', after: 'cancelled' }])
        await queueAppointmentMessage(tx, booking.leadId, 'appointment-cancelled', id, revision)
        return { ...booking, status: 'cancelled' as const, revision }
      })
      options.onQueued?.()
      return cancelled
    },
  }
}

export type AppointmentStore = ReturnType<typeof createAppointmentStore>
