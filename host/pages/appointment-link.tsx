import { useQuery } from '@tanstack/react-query'
import { appointmentKindLabels, slotTime, slotWhen } from '../../domain/appointments.ts'
import { business, formatAddress, mapsSearchUrl, showroomByKey } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { SlotPicker } from '../../widgets/shared/slot-picker.tsx'
import { usePostedForm } from '../form-state.ts'
import { type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'

/**
 * A booking's page, opened by the signed link of its emails (PRODUCT.md, "confirmations and
 * reminders"): the time and place, a form to move it to another free time and a button to cancel
 * it, no account and no script needed. Opening it changes nothing (a mail scanner that fetches
 * the link moves nothing); the forms post (host/server/appointment-posts.ts). A link whose id or
 * signature was changed is a 404. Never indexed, never kept.
 */
export const bookingDays = 28

const linkOf = (search: string | URLSearchParams) => {
  const query = new URLSearchParams(search)
  return { booking: query.get('booking') ?? '', sig: query.get('sig') ?? '' }
}

const meta: PageMeta = {
  title: 'Your booking',
  description: `Move or cancel your visit to ${business.name}.`,
  keywords: [business.name],
  pageType: 'alert',
  path: paths.appointmentManage,
  noindex: true,
}

function BookingPage({ search }: PageProps) {
  useDocumentMeta(meta)
  const trpc = useTRPC()
  const link = linkOf(search)
  const posted = usePostedForm()?.booking
  const done = new URLSearchParams(search).get('done')
  const { data: booking, isError } = useQuery({ ...trpc.appointment.byLink.queryOptions(link), retry: false })
  const open = booking?.status === 'booked' && Date.parse(booking.startsAt) > Date.now()
  const { data: free } = useQuery({
    ...trpc.appointment.slots.queryOptions({ showroom: booking?.showroom ?? 'bayville', kind: booking?.kind ?? 'test-drive', days: bookingDays }),
    enabled: open,
  })
  if (isError || !booking) {
    return (
      <section className="section">
        <div className="container prose">
          <h1 className="page-title">This booking link is not valid</h1>
          <p>
            Use the link in your confirmation email as it came, or call <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a> and
            we will move or cancel it for you.
          </p>
        </div>
      </section>
    )
  }
  const showroom = showroomByKey(booking.showroom)
  const what = appointmentKindLabels[booking.kind]
  const action = paths.appointmentLink(Number(link.booking), link.sig)
  const title = booking.status === 'cancelled' ? `Your ${what.toLowerCase()} is cancelled` : `Your ${what.toLowerCase()}`
  return (
    <section className="section">
      <div className="container prose gc-theme gc-booking">
        <h1 className="page-title">{title}</h1>
        {done === 'moved' && booking.status === 'booked' && (
          <p className="notice notice--success" role="status">
            Moved. A new confirmation with the calendar invitation is on its way to your email.
          </p>
        )}
        {done === 'cancelled' && (
          <p className="notice notice--success" role="status">
            Cancelled. We have told the showroom; nobody will wait for you.
          </p>
        )}
        {posted?.message && (
          <p className="notice notice--error" role="alert">
            {posted.message}
          </p>
        )}
        <div className="gc-booking__done">
          <p>
            <strong>{slotWhen(booking.startsAt)}</strong> to {slotTime(booking.endsAt)}, New Jersey time
            {booking.status === 'cancelled' ? ' (cancelled)' : ''}
          </p>
          {booking.cartTitle && booking.kind === 'test-drive' && <p>The cart: {booking.cartTitle}</p>}
          {showroom?.address && (
            <p className="gc-booking__where">
              <span>
                {business.name} {showroom.name}, {formatAddress(showroom.address)}
              </span>
              <span>
                <a href={mapsSearchUrl(showroom)}>Open in maps</a> · <a href={`tel:${showroom.phone.tel}`}>{showroom.phone.display}</a>
              </span>
            </p>
          )}
        </div>
        {open && (
          <>
            <h2 className="section__title">Move it</h2>
            <form method="post" action={action} className="gc-form">
              <input type="hidden" name="action" value="move" />
              <SlotPicker id="booking-move" slots={(free?.slots ?? []).map((s) => s.startsAt)} value="" scripted={false} error={posted?.errors.startsAt} label="New date and time" />
              <button type="submit" className="gc-button gc-button--primary">
                Move to this time
              </button>
            </form>
            <h2 className="section__title">Cancel it</h2>
            <form method="post" action={action}>
              <input type="hidden" name="action" value="cancel" />
              <button type="submit" className="gc-button gc-button--secondary">
                Cancel the booking
              </button>
            </form>
          </>
        )}
        {booking.status === 'cancelled' && (
          <p>
            <a href={paths.inventory}>Browse the inventory</a> or call <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a> to book
            another time.
          </p>
        )}
      </div>
    </section>
  )
}

export const appointmentManageRoute: Route = {
  Page: BookingPage,
  meta: () => meta,
  async prefetch({ queryClient, trpc }, _params, search) {
    const link = linkOf(search)
    const booking = await queryClient.fetchQuery(trpc.appointment.byLink.queryOptions(link)).catch(() => undefined)
    if (!booking) return { status: 404 }
    if (booking.status === 'booked') await queryClient.prefetchQuery(trpc.appointment.slots.queryOptions({ showroom: booking.showroom, kind: booking.kind, days: bookingDays }))
  },
}
