import { island } from '../islands/island.tsx'
import { useQuery } from '@tanstack/react-query'
import { Phone } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { featuredCount, formatPrice, type GolfCartDetail } from '../../domain/golf-cart.ts'
import { cartSpecifications } from '../../domain/cart-facts.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { holdAnchor, VehicleDetail, vehicleQuery } from '../../widgets/vehicle-detail/vehicle-detail.tsx'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'
import { cartImages } from '../../domain/cart-pictures.ts'
import { photoSizes, photoSrcSet } from '../../domain/photos.ts'
import type { MetaContext, Params, PageProps, Route } from '../page.ts'
import { paths, testDriveAnchor } from '../../domain/site-paths.ts'
import { breadcrumbs, vehicleProduct } from '../structured-data.ts'
import { type FormState, usePostedForm } from '../form-state.ts'
import type { BookVisitProps } from '../../widgets/book-visit/book-visit.tsx'
import { pickerDays } from '../../domain/appointments.ts'

function meta(siteUrl: string, slug: string, cart: GolfCartDetail | null | undefined): PageMeta {
  if (!cart) {
    return {
      title: 'Vehicle Not Found',
      description: `This golf cart is no longer listed. Browse the carts in stock at ${business.name}. ${callPrompt}`,
      keywords: ['golf cart inventory'],
      pageType: 'vehicle',
      path: paths.vehicle(slug),
      noindex: true,
    }
  }
  const spec = cartSpecifications(cart)
  const [cover, ...more] = cartImages(cart)
  return {
    title: cart.title,
    description: `${cart.title}, starting at ${formatPrice(cart.price)}. ${spec.seats.max} seats, ${spec.topSpeedMph} mph, ${spec.battery.toLowerCase()} battery. ${callPrompt}`,
    keywords: [cart.title, `${spec.brand} golf cart`, 'electric golf cart for sale NJ', 'new golf cart'],
    pageType: 'vehicle',
    path: paths.vehicle(cart.slug),
    // A sold cart's page stays for visitors who follow a link, not for search results.
    ...(cart.status === 'sold' && { noindex: true }),
    // Social cards: the cover and up to five more photos, else the drawing (domain/cart-pictures.ts).
    image: cover!,
    moreImages: more.slice(0, 5),
    ...(cart.photos[0] && { preloadImage: { type: 'image/avif', srcSet: photoSrcSet(cart.photos[0], 'avif'), sizes: photoSizes.gallery } }),
    jsonLd: [
      vehicleProduct(cart, siteUrl),
      breadcrumbs(siteUrl, [
        { name: 'Home', path: paths.home },
        { name: 'Inventory', path: paths.inventory },
        { name: cart.title, path: paths.vehicle(cart.slug) },
      ]),
    ],
  }
}

/**
 * The booking without JavaScript (docs/decisions/0046), from the address and the refused post:
 * `?day=` (the form open, that day's times), `?booked=&ends=` (made: its time), or what was typed.
 */
export function noScriptBooking(search: string, refused: FormState | undefined): Pick<BookVisitProps, 'day' | 'booked' | 'initial'> {
  const query = new URLSearchParams(search)
  const booked = query.get('booked')
  const endsAt = query.get('ends')
  if (!refused && booked && endsAt && !Number.isNaN(Date.parse(booked)) && !Number.isNaN(Date.parse(endsAt))) {
    return { booked: { startsAt: new Date(booked).toISOString(), endsAt: new Date(endsAt).toISOString() } }
  }
  const day = query.get('day') ?? (refused ? '' : undefined)
  return { day: day === null ? undefined : day, initial: refused }
}

function VehiclePage({ params, search }: PageProps) {
  const slug = params.slug ?? ''
  const trpc = useTRPC()
  // "Tell me if the price drops" posted without JavaScript: refused (the page again), or sent (the redirect's `watch=sent`).
  const posted = usePostedForm()?.watch ?? (new URLSearchParams(search).get('watch') === 'sent' ? { sent: true } : undefined)
  const booking = noScriptBooking(search, usePostedForm()?.book)
  const { data } = useQuery(vehicleQuery(trpc, slug))
  // Asked only for an available cart (the prefetch's rule); Hold is in the bar when Stripe is set up.
  const offer = useQuery({ ...trpc.deposit.offer.queryOptions(), enabled: data?.status === 'available' })
  useDocumentMeta(meta('', slug, data))
  return (
    <section className="section">
      <div className="container">
        <VehicleDetail
          slug={slug}
          homeHref={paths.home}
          inventoryHref={paths.inventory}
          contactHref={paths.quoteForm}
          vehicleHref={paths.vehicle}
          privacyHref={paths.privacy}
          watch={{ action: paths.vehicle(slug), posted, push: true }}
        />
        {data && data.status !== 'sold' && (
          // "Book a test drive" (PRODUCT.md, "where shoppers book"): the cart named, at its showroom.
          <div className="panel vehicle-booking" id={testDriveAnchor}>
            {island('book-visit', {
              kind: 'test-drive',
              knownCart: { id: data.id, title: data.title },
              showroom: data.location,
              source: 'vehicle-page',
              closed: true,
              action: paths.vehicle(data.slug),
              anchor: testDriveAnchor,
              ...booking,
            })}
          </div>
        )}
      </div>
      {data && <PhoneBar slug={data.slug} sold={data.status === 'sold'} hold={data.status === 'available' && Boolean(offer.data)} />}
    </section>
  )
}

/**
 * On a phone, a bar at the bottom of the vehicle page with Call, Get Quote and (with deposits)
 * Hold (PRODUCT.md, "phone first"): what a shopper does next, always a thumb away. It stands
 * over the page's content; the page ends with room for it (site.css), so it never covers the
 * footer's links. Wider screens have the same buttons beside the price.
 */
function PhoneBar(props: { slug: string; sold: boolean; hold: boolean }) {
  return (
    <aside className="phone-bar" aria-label="Call or ask about this cart">
      <a className="gc-button gc-button--secondary" href={`tel:${business.tollFree.tel}`}>
        <Phone aria-hidden="true" size={18} /> Call<span className="gc-sr-only"> {business.tollFree.display}</span>
      </a>
      <a className="gc-button gc-button--primary" href={paths.quoteForm(props.slug)}>
        {props.sold ? 'Similar Cart Quote' : 'Get Quote'}
      </a>
      {props.hold && (
        <a className="gc-button gc-button--outline" href={`#${holdAnchor}`}>
          Hold
        </a>
      )}
    </aside>
  )
}

/**
 * Whether a slug that found no cart belonged to one sold more than SOLD_VISIBLE_DAYS ago: gone for
 * good, 410 (api/http/errors.ts, GoneError). Asked only for a missing cart; the answer is not kept.
 */
async function soldAndGone({ queryClient, trpc }: MetaContext, slug: string): Promise<boolean> {
  const options = trpc.cart.bySlug.queryOptions({ slug })
  const gone = await queryClient.fetchQuery(options).then(
    () => false,
    (error: unknown) => (error as { cause?: { name?: unknown } }).cause?.name === 'GoneError',
  )
  queryClient.removeQueries({ queryKey: options.queryKey, exact: true })
  return gone
}

export const vehicleRoute: Route = {
  Page: VehiclePage,
  meta: ({ siteUrl, queryClient, trpc }, params: Params) =>
    meta(siteUrl, params.slug ?? '', queryClient.getQueryData(vehicleQuery(trpc, params.slug ?? '').queryKey)),
  async prefetch(context, params, search) {
    const { queryClient, trpc } = context
    const slug = params.slug ?? ''
    let cart: GolfCartDetail | null
    try {
      cart = await queryClient.fetchQuery(vehicleQuery(trpc, slug))
    } catch {
      // A failure to answer (the database down) stays in the cache as an error: the page renders
      // with a retry button and the server answers 503.
      return
    }
    if (!cart) return { status: (await soldAndGone(context, slug)) ? 410 : 404 }
    // Links in the other slug reading (docs/PRODUCT.md, "Slugs") move permanently to the canonical one.
    if (cart.slug !== slug) return { status: 301, redirect: paths.vehicle(cart.slug) }
    if (cart.status === 'sold') await queryClient.prefetchQuery(trpc.cart.similar.queryOptions({ slug: cart.slug, limit: featuredCount }))
    // Whether Hold is offered is part of the page's HTML (no button without Stripe's settings).
    if (cart.status === 'available') await queryClient.prefetchQuery(trpc.deposit.offer.queryOptions())
    // The booking opened without JavaScript (`?day=`, or a refused post): its free times are in the HTML.
    if (cart.status !== 'sold' && cart.location && search.has('day')) {
      await queryClient.prefetchQuery(trpc.appointment.slots.queryOptions({ showroom: cart.location, kind: 'test-drive', days: pickerDays }))
    }
  },
}
