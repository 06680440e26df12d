import { addDays, type Day, formatDay, isDay, newJerseyToday, weekdayOf } from '../../domain/calendar-days.ts'
import { formatCents } from '../../domain/deposits.ts'
import { cartTypes, isCartType, rentalCartType, rentalCartTypes } from '../../domain/rental-plans.ts'
import { rentalRequestFacts, rentalStatusLabels } from '../../domain/rental-request.ts'
import { procedureAccess, roleAllows } from '../../domain/staff-access.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { Checkbox, choices, Field } from './form-kit.tsx'
import { type PostOutcome, type PostedState, type StaffPageContext, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/rentals`, the rental calendar (PRODUCT.md, "rental calendar"): the fleet, and per day
 * and cart type the confirmed reservations against it and the open requests; below, every
 * request in the window with Confirm, Decline and Change. Every write is a `staff.rental.*`
 * procedure, so a confirmation that would put out more carts than the fleet has is refused (409)
 * in its own transaction and shown here with the day it fails on. With Stripe set up, confirming
 * can email the renter a deposit link (`staff.rental.sendDepositLink`, issue #52), a confirmed
 * reservation has "Send deposit link", and each request says whether its deposit is asked or paid.
 * A plain page: forms post back.
 */
const windowDays = 14

function windowStart(value: string | null | undefined): Day {
  return value && isDay(value) ? value : newJerseyToday()
}

const calendarUrl = (from: Day) => (from === newJerseyToday() ? staffPaths.rentals : `${staffPaths.rentals}?from=${from}`)

async function loadRentals(context: StaffPageContext) {
  const from = windowStart(context.query.get('from'))
  const calendar = await context.caller.staff.rental.calendar({ from, days: windowDays })
  return calendar
}

type RentalsData = Awaited<ReturnType<typeof loadRentals>>

async function postRentals(context: StaffPageContext, form: Record<string, string>): Promise<PostOutcome> {
  const from = windowStart(form.from)
  // The request a row's form is about (`id`), read by the procedures' own schema for a lead's id.
  const about = context.parse('staff.rental.decline')
  const id = about.ok ? about.value.id : undefined
  const after = (notice: string) => ({ redirect: calendarUrl(from), notice })
  try {
    const rental = context.caller.staff.rental
    if (form.action !== 'fleet' && form.action !== 'change' && !about.ok) return about.refusal
    switch (form.action) {
      case 'confirm':
        if (!about.ok) return about.refusal
        await rental.confirm(about.value)
        if (form.depositLink !== 'on') return after(`Confirmed lead ${id}: a cart is reserved for its days. Call the renter to say so.`)
        try {
          await rental.sendDepositLink(about.value)
        } catch (error) {
          // Confirmed all the same: the page says so, and what kept the link from going.
          const refused = context.refused(error, form, id)
          return { ...refused, posted: { ...refused.posted, message: `Confirmed, but the deposit link was not sent: ${refused.posted.message ?? 'try Send deposit link.'}` } }
        }
        return after(`Confirmed lead ${id}, and emailed the renter a link to pay the deposit. Paid, it shows here.`)
      case 'deposit-link':
        if (!about.ok) return about.refusal
        await rental.sendDepositLink(about.value)
        return after(`Emailed lead ${id}'s renter a link to pay the deposit. Paid, it shows here.`)
      case 'decline':
        if (!about.ok) return about.refusal
        await rental.decline(about.value)
        return after(`Declined lead ${id}: its days hold nothing now.`)
      case 'change': {
        // The procedure's schema judges every field (a cart or plan that is none, a date that is not one).
        const parsed = context.parse('staff.rental.change')
        if (!parsed.ok) return { ...parsed.refusal, posted: { ...parsed.refusal.posted, rowId: id } }
        await rental.change(parsed.value)
        return after(`Changed lead ${parsed.value.id}: the new dates, cart and price are saved.`)
      }
      case 'fleet': {
        const parsed = context.parse('staff.rental.setFleet')
        if (!parsed.ok) return parsed.refusal
        await rental.setFleet(parsed.value)
        return after('The fleet is saved.')
      }
      default:
        return { status: 400, posted: { values: form, errors: {}, message: 'Choose Confirm, Decline, Send deposit link, Save change or Save fleet.' } }
    }
  } catch (error) {
    return context.refused(error, form, id)
  }
}

function RentalsPage({ data, context, posted }: StaffPageProps<RentalsData>) {
  const days = data.days[cartTypes[0]].map((d) => d.day)
  const mayChangeFleet = roleAllows(context.role, procedureAccess['staff.rental.setFleet']![0])
  return (
    <>
      <h1>Rental calendar</h1>
      <p className="staff-hint">
        Requests come from the site's rental request form; nothing is reserved until you confirm one. Confirming reserves a cart of its
        type for its days, and is refused when every cart of that type is already out on one of them.
      </p>
      {posted?.message && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.rowId ? `Lead ${posted.rowId}: ` : ''}
          {posted.message}
        </p>
      )}
      <section className="staff-section" aria-labelledby="fleet-heading">
        <h2 id="fleet-heading">Fleet</h2>
        {mayChangeFleet ? (
          <div className="rental-fleet">
            {rentalCartTypes.map((type) => (
              <form key={type.key} method="post" action={staffPaths.rentals} className="rental-fleet__type">
                <input type="hidden" name="action" value="fleet" />
                <input type="hidden" name="from" value={data.from} />
                <input type="hidden" name="cartType" value={type.key} />
                <Field
                  name="carts"
                  id={`fleet-${type.key}`}
                  label={`${type.title} carts`}
                  posted={posted?.values.action === 'fleet' && posted.values.cartType === type.key ? posted : undefined}
                  defaultValue={data.fleet[type.key]}
                >
                  {(control) => <input {...control} type="number" min={0} max={500} inputMode="numeric" />}
                </Field>
                <button type="submit" className="staff-button staff-button--small">
                  Save<span className="gc-sr-only"> the {type.title} fleet</span>
                </button>
              </form>
            ))}
          </div>
        ) : (
          <p>
            {rentalCartTypes.map((type) => `${data.fleet[type.key]} ${type.title}`).join(', ')} carts. Managers and owners change the fleet.
          </p>
        )}
      </section>
      <section className="staff-section" aria-labelledby="calendar-heading">
        <div className="staff-heading">
          <h2 id="calendar-heading">
            {formatDay(data.from)} to {formatDay(addDays(data.to, -1))}
          </h2>
          <nav className="staff-pager" aria-label="Weeks of the calendar">
            <a href={calendarUrl(addDays(data.from, -windowDays))}>Earlier</a>
            <a href={staffPaths.rentals}>Today</a>
            <a href={calendarUrl(addDays(data.from, windowDays))}>Later</a>
          </nav>
        </div>
        <div className="rental-calendar" role="region" aria-label="Days by cart type (scrolls sideways on a narrow screen)" tabIndex={0}>
          <table className="rental-calendar__table">
            <caption className="gc-sr-only">
              Carts reserved of the fleet, and open requests, per cart type and day
            </caption>
            <thead>
              <tr>
                <th scope="col">Cart</th>
                {days.map((day) => (
                  <th key={day} scope="col">
                    <abbr title={weekdayOf(day)}>{weekdayOf(day).slice(0, 3)}</abbr> {Number(day.slice(8))}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {cartTypes.map((type) => (
                <tr key={type}>
                  <th scope="row">
                    {rentalCartType(type).title} <span className="staff-muted">({data.fleet[type]})</span>
                  </th>
                  {data.days[type].map((d) => {
                    const full = d.confirmed >= data.fleet[type]
                    return (
                      <td key={d.day} className={full ? 'rental-calendar__full' : undefined}>
                        <span className="rental-calendar__out">
                          {d.confirmed}/{data.fleet[type]}
                          <span className="gc-sr-only"> reserved{full ? ', full' : ''}</span>
                        </span>
                        {d.requested > 0 && (
                          <span className="rental-calendar__asked">
                            +{d.requested}
                            <span className="gc-sr-only"> requested</span>
                          </span>
                        )}
                      </td>
                    )
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="staff-hint">
          Each day shows the carts reserved of the fleet (2/6), and in blue the open requests (+1). A full day is red.
        </p>
      </section>
      <section className="staff-section" aria-labelledby="requests-heading">
        <h2 id="requests-heading">Requests in these two weeks</h2>
        {data.requests.length === 0 ? (
          <p>No rental requests or reservations overlap these days.</p>
        ) : (
          <ul className="rental-requests">
            {data.requests.map((request) => (
              <RequestCard
                key={request.inquiryId}
                request={request}
                from={data.from}
                deposit={data.deposit}
                posted={posted?.rowId === request.inquiryId ? posted : undefined}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  )
}

/** A request's deposit as its card says it: asked (a link emailed), paid, or refunded. */
const depositBadges = {
  asked: { label: 'Deposit asked', className: 'staff-badge staff-badge--off' },
  paid: { label: 'Deposit paid', className: 'staff-badge staff-badge--paid' },
  refunded: { label: 'Deposit refunded', className: 'staff-badge staff-badge--off' },
} as const

function RequestCard({
  request,
  from,
  deposit,
  posted,
}: {
  request: RentalsData['requests'][number]
  from: Day
  /** What a deposit link asks for; null without Stripe's settings (no link offered). */
  deposit: RentalsData['deposit']
  posted?: PostedState
}) {
  const id = request.inquiryId
  const changing = posted?.values.action === 'change' ? posted : undefined
  const cartType = changing && isCartType(changing.values.cartType) ? changing.values.cartType : request.cartType
  const hidden = (action: string) => (
    <>
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="from" value={from} />
    </>
  )
  return (
    <li className={`rental-request rental-request--${request.status}`} data-lead-id={id}>
      <h3>
        <a href={leadPaths.lead(id)}>{request.name}</a> <span className="staff-badge">{rentalStatusLabels[request.status]}</span>
        {request.deposit && (
          <>
            {' '}
            <span className={depositBadges[request.deposit].className} data-deposit={request.deposit}>
              {depositBadges[request.deposit].label}
            </span>
          </>
        )}
      </h3>
      <p>
        {request.phone && (
          <>
            <a href={`tel:${request.phone}`}>{request.phone}</a>
            {' · '}
          </>
        )}
        <a href={`mailto:${request.email}`}>{request.email}</a>
      </p>
      <dl className="rental-request__facts">
        {rentalRequestFacts(request)
          .filter(([label]) => label !== 'Status')
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <div className="rental-request__actions">
        {request.status === 'requested' && (
          <form method="post" action={staffPaths.rentals} className="rental-request__confirm">
            {hidden('confirm')}
            <button type="submit" className="staff-button">
              Confirm<span className="gc-sr-only"> {request.name}'s request</span>
            </button>
            {deposit && (
              <Checkbox id={`confirm-${id}-deposit`} name="depositLink" label={`Email a ${formatCents(deposit.amountCents)} deposit link`} defaultChecked />
            )}
          </form>
        )}
        {request.status === 'confirmed' && deposit && request.deposit !== 'paid' && (
          <form method="post" action={staffPaths.rentals}>
            {hidden('deposit-link')}
            <button type="submit" className="staff-button">
              {request.deposit === 'asked' ? 'Send deposit link again' : 'Send deposit link'}
              <span className="gc-sr-only"> to {request.name}</span>
            </button>
          </form>
        )}
        <form method="post" action={staffPaths.rentals}>
          {hidden('decline')}
          <button type="submit" className="staff-button staff-button--quiet">
            Decline<span className="gc-sr-only"> {request.name}'s request</span>
          </button>
        </form>
      </div>
      <details className="rental-request__change" open={Boolean(changing)}>
        <summary>Change the cart, plan or dates</summary>
        <form method="post" action={staffPaths.rentals} className="rental-request__change-form">
          {hidden('change')}
          <Field name="cartType" id={`change-${id}-cart`} label="Cart" defaultValue={cartType}>
            {choices(rentalCartTypes.map((type) => ({ value: type.key, label: type.title })))}
          </Field>
          <Field name="plan" id={`change-${id}-plan`} label="Plan" posted={changing} defaultValue={request.plan}>
            {choices(rentalCartType(cartType).plans.map((plan) => ({ value: plan.key, label: `${plan.title} (${plan.period})` })))}
          </Field>
          <Field name="startDate" id={`change-${id}-start`} label="Start date" type="date" posted={changing} defaultValue={request.startDate} />
          <button type="submit" className="staff-button">
            Save change<span className="gc-sr-only"> to {request.name}'s request</span>
          </button>
        </form>
      </details>
    </li>
  )
}

export const rentalsPage = staffPage<RentalsData>({
  path: staffPaths.rentals,
  roles: { get: ['sales', 'see the rental calendar'], post: ['sales', 'work rental requests'] },
  nav: { label: 'Rentals', place: 60 },
  title: () => 'Rental calendar',
  load: loadRentals,
  Page: RentalsPage,
  post: postRentals,
})
