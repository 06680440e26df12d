import { queryOptions, useQuery } from '@tanstack/react-query'
import { ArrowLeft, BatteryCharging, Gauge, Leaf, type LucideIcon, MapPin, Phone, Route, ShieldCheck, Users, Wrench, Zap } from 'lucide-react'
import { useEffect } from 'react'
import { business, formatAddress, type Location, mapsSearchUrl, showroomByKey } from '../../domain/business.ts'
import { dealershipSourceFor } from '../../domain/dealership-sources.ts'
import { type Condition, cartSpecifications, conditionLabels, statusLabels } from '../../domain/cart-facts.ts'
import { cartBadges, categoryLabel, featuredCount, formatPrice, type GolfCartDetail, msrpSaving } from '../../domain/golf-cart.ts'
import { financingOffer, formatMonthly, monthlyFrom } from '../../domain/payment.ts'
import { formatRange, formatSeating, type Specifications, specificationGroups } from '../../domain/specifications.ts'
import { answeredNo, type ApiOptions, describeFailure, useApiBase, useTRPC } from '../shared/api.tsx'
import { CartGrid } from '../shared/cart-card.tsx'
import { Island } from '../shared/island.tsx'
import { LoadError } from '../shared/load-error.tsx'
import { resolveUrl } from '../shared/urls.ts'
import { type PostedWatch, WatchForm } from '../shared/watch-form.tsx'
import { watchWords } from '../../domain/cart-alerts.ts'
import { Gallery, type GalleryProps } from './gallery.tsx'
import { HoldForm, type HoldFormProps } from './hold-form.tsx'
import { SpecRows } from './spec-rows.tsx'
import { useRefusedOrigin } from '../shared/lead-form.ts'
import { onHoldUntil } from '../../domain/deposits.ts'

export interface VehicleDetailProps {
  slug: string
  headingLevel?: 1 | 2
  homeHref: string
  inventoryHref: string
  /** Get Quote: the contact form with the cart chosen; without a slug, a general quote. */
  contactHref: (slug?: string) => string
  /** Where a similar cart's card links (a sold cart's page offers some). */
  vehicleHref: (slug: string) => string
  /** A label stored with a deposit's lead from this page or embed. */
  source?: string
  /**
   * In an embed: ask the API first whether this page may start a deposit (the lead origins);
   * if not, Hold is not offered (Call still is).
   */
  checkOrigin?: boolean
  /** The privacy policy, which says what a price alert's address is used for. */
  privacyHref: string
  /** "Tell me if the price drops": how its form is sent (widgets/shared/watch-form.tsx). */
  watch?: { action?: string; posted?: PostedWatch; push?: boolean; checkOrigin?: boolean }
  onError?: (message: string) => void
}

const features: { icon: LucideIcon; title: string; text: string }[] = [
  { icon: Zap, title: 'Electric Power', text: 'Quiet, instant torque from an electric drivetrain: no gas, no oil, no fumes.' },
  { icon: ShieldCheck, title: 'Safety First', text: 'Seat belts, lights, mirrors and dependable brakes on every cart we sell.' },
  { icon: Wrench, title: 'Low Maintenance', text: 'No oil changes or tune-ups. Charge it, check the tires and drive.' },
  { icon: Leaf, title: 'Eco-Friendly', text: 'Zero tailpipe emissions keep your street clean and quiet.' },
]

/**
 * One cart by either slug reading, or null when there is none. "No such cart" is an answer and
 * is cached like one, so the server renders Vehicle Not Found (status 404) and the page hydrates
 * without asking again; only a failure to answer is an error, shown with a retry button.
 */
export function vehicleQuery(api: ApiOptions, slug: string) {
  const bySlug = api.cart.bySlug.queryOptions({ slug })
  const { queryFn } = bySlug
  return queryOptions({
    queryKey: [...bySlug.queryKey, 'or-none'] as const,
    async queryFn(context): Promise<GolfCartDetail | null> {
      if (!queryFn) throw new Error('cart.bySlug has no query function')
      try {
        return await queryFn({ ...context, queryKey: bySlug.queryKey })
      } catch (error) {
        if (answeredNo(error)) return null
        throw error
      }
    },
  })
}

/**
 * The vehicle page (docs/PRODUCT.md, "Vehicle page"): everything about one cart, its
 * specifications from the record where staff stored them and from the title elsewhere. A sold
 * cart says so and offers similar carts (docs/PRODUCT.md, the cart lifecycle).
 */
export function VehicleDetail({ slug, headingLevel = 1, ...props }: VehicleDetailProps) {
  const trpc = useTRPC()
  const apiBase = useApiBase()
  const query = useQuery(vehicleQuery(trpc, slug))
  // Null without Stripe's settings: then no Hold anywhere (PRODUCT.md, "Closing the sale").
  const offer = useQuery(trpc.deposit.offer.queryOptions())
  const holdable = query.data?.status === 'available' && Boolean(offer.data)
  const refusedOrigin = useRefusedOrigin(holdable && props.checkOrigin)
  const { onError } = props
  useEffect(() => {
    if (query.error) onError?.(describeFailure(query.error))
  }, [query.error, onError])

  const H = `h${headingLevel}` as const
  const Sub = `h${headingLevel + 1}` as 'h2' | 'h3'
  const SubSub = `h${headingLevel + 2}` as 'h3' | 'h4'

  if (query.isPending) return <VehicleSkeleton />
  if (query.isError) {
    return <LoadError what="this golf cart" onRetry={() => void query.refetch()} retrying={query.isFetching} />
  }
  if (!query.data) {
    return (
      <section className="gc-not-found" part="not-found">
        <H className="gc-heading">Vehicle Not Found</H>
        <p>The vehicle you're looking for doesn't exist or has been removed.</p>
        <a className="gc-button gc-button--primary" part="button" href={props.inventoryHref}>
          Back to Inventory
        </a>
      </section>
    )
  }

  const cart = query.data
  const spec = cartSpecifications(cart)
  const groups = specificationGroups(spec, { category: categoryLabel(cart.category), availability: statusLabels[cart.status] })
  const badges = cartBadges(cart)
  const source = dealershipSourceFor(cart.title)
  const showroom = showroomByKey(cart.location)
  const highlights: { icon: LucideIcon; label: string; value: string }[] = [
    { icon: Gauge, label: 'Top Speed', value: `${spec.topSpeedMph} mph` },
    { icon: Route, label: 'Range', value: `${formatRange(spec.rangeMiles)} miles` },
    { icon: Users, label: 'Seating', value: formatSeating(spec) },
    { icon: BatteryCharging, label: 'Battery', value: spec.battery },
  ]

  return (
    <article className="gc-vehicle" part="vehicle">
      <div className="gc-vehicle__nav">
        <nav aria-label="Breadcrumb" className="gc-breadcrumb">
          <ol>
            <li>
              <a href={props.homeHref}>Home</a>
            </li>
            <li>
              <a href={props.inventoryHref}>Inventory</a>
            </li>
            <li aria-current="page">{cart.title}</li>
          </ol>
        </nav>
        <a className="gc-vehicle__back" href={props.inventoryHref}>
          <ArrowLeft aria-hidden="true" size={16} /> Back to Inventory
        </a>
      </div>

      <div className="gc-vehicle__top">
        {cart.photos.length > 0 ? (
          // The one part of the page that runs in the browser on the dealer's site.
          <Island name="gallery" props={{ photos: cart.photos, apiBase, title: cart.title } satisfies GalleryProps}>
            <Gallery photos={cart.photos} apiBase={apiBase} title={cart.title} />
          </Island>
        ) : (
          <div className="gc-vehicle__media">
            <img
              src={resolveUrl(apiBase, cart.imageUrl)}
              alt={cart.title}
              width={800}
              height={600}
              fetchPriority="high"
              part="image"
            />
          </div>
        )}
        <div className="gc-vehicle__summary">
          {/* The cards' badges: only what tells this cart apart (PRODUCT.md, "cards"), so no NEW on every new cart. */}
          {badges.length > 0 && (
            <span className="gc-vehicle__badges">
              {badges.map((badge) => (
                <span key={badge.kind} className={`gc-badge gc-badge--${badge.kind}`} part={badge.kind === 'hold' || badge.kind === 'sold' ? 'badge status' : 'badge'}>
                  {badge.label}
                </span>
              ))}
            </span>
          )}
          <H className="gc-vehicle__title" part="heading">
            {cart.title}
          </H>
          {/* The price right under the title: on a phone both are above the fold (PRODUCT.md, "phone first"). */}
          <p className="gc-vehicle__pricing">
            <span className="gc-vehicle__price" part="price">
              {formatPrice(cart.price)}
            </span>
            {cart.status !== 'sold' && (
              <span className="gc-vehicle__monthly" part="monthly">
                From {formatMonthly(monthlyFrom(cart.price))}
              </span>
            )}
          </p>
          {cart.msrp !== null && <MsrpLine cart={cart} />}
          {cart.status === 'sold' && (
            <p className="gc-vehicle__notice" role="status">
              This cart has been sold. Similar carts in stock are below, or call us and we will find you one.
            </p>
          )}
          {cart.status === 'hold' && cart.holdUntil && (
            <p className="gc-vehicle__notice" part="hold-until">
              <strong>{onHoldUntil(cart.holdUntil)}.</strong> Another shopper's deposit holds it; call us and we will find you one like it.
            </p>
          )}
          <p className="gc-vehicle__description">{cart.description}</p>
          {showroom && <ShowroomLine showroom={showroom} sold={cart.status === 'sold'} />}
          <ul className="gc-highlights" aria-label="Highlights">
            {highlights.map(({ icon: Icon, label, value }) => (
              <li key={label} className="gc-highlight">
                <Icon aria-hidden="true" size={22} />
                <span className="gc-highlight__label">{label}</span>
                <span className="gc-highlight__value">{value}</span>
              </li>
            ))}
          </ul>
          <div className="gc-actions">
            <QuoteButton cart={cart} contactHref={props.contactHref} />
            <a className="gc-button gc-button--secondary" part="button" href={`tel:${business.tollFree.tel}`}>
              <Phone aria-hidden="true" size={18} /> Call Now
            </a>
            {source && (
              <a className="gc-button gc-button--outline" part="button" href={source} target="_blank" rel="noopener noreferrer">
                View Dealership Source<span className="gc-sr-only"> (opens the manufacturer's page in a new tab)</span>
              </a>
            )}
          </div>
          {holdable && offer.data && refusedOrigin === undefined && (
            // The phone bar of a phone-first page can hold this same part (PRODUCT.md, "phone first").
            <div id={holdAnchor} className="gc-vehicle__hold">
              <Island name="hold" props={{ cartId: cart.id, cartTitle: cart.title, offer: offer.data, source: props.source } satisfies HoldFormProps}>
                <HoldForm cartId={cart.id} cartTitle={cart.title} offer={offer.data} source={props.source} onError={onError} />
              </Island>
            </div>
          )}
          {cart.status !== 'sold' && (
            <WatchForm
              subject={{ cartId: cart.id }}
              label={watchWords.cart}
              promise={`If the price drops below ${formatPrice(cart.price)}${cart.status === 'hold' ? ' or it comes off hold' : ''}, we'll tell you within a minute.`}
              privacyHref={props.privacyHref}
              {...props.watch}
            />
          )}
        </div>
      </div>

      {cart.status === 'sold' && <SimilarCarts slug={cart.slug} headingLevel={headingLevel} vehicleHref={props.vehicleHref} />}

      <section className="gc-vehicle__section" aria-label="Why electric">
        <ul className="gc-feature-grid">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className="gc-feature">
              <Icon aria-hidden="true" size={26} />
              <Sub className="gc-feature__title">{title}</Sub>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="gc-vehicle__section" part="specifications">
        <Sub className="gc-heading">Specifications</Sub>
        <div className="gc-spec-groups">
          {(
            [
              ['This Cart', cartFacts(cart, spec)],
              ['Performance', groups.performance],
              ['Dimensions', groups.dimensions],
              ['Capacity', groups.capacity],
            ] as const
          ).map(([title, rows]) => (
            <div key={title} className="gc-spec-group">
              <SubSub className="gc-spec-group__title">{title}</SubSub>
              <SpecRows rows={rows} rowClassName="gc-spec-row" />
            </div>
          ))}
        </div>
      </section>

      <section className="gc-cta" part="cta">
        <Sub className="gc-cta__title">
          {cart.status === 'sold' ? `Looking for a cart like the ${cart.title}?` : `Ready to drive the ${cart.title} home?`}
        </Sub>
        <p>
          Ask for a quote or call us. {financingOffer.apr}% financing on {financingOffer.models} {financingOffer.condition}.
        </p>
        <div className="gc-actions gc-actions--center">
          <QuoteButton cart={cart} contactHref={props.contactHref} />
          <a className="gc-button gc-button--secondary" part="button" href={`tel:${business.tollFree.tel}`}>
            <Phone aria-hidden="true" size={18} /> Call <span className="gc-nowrap">{business.tollFree.display}</span>
          </a>
        </div>
      </section>
    </article>
  )
}

/**
 * What the dealer typed about this one cart, as visitors read it (issue #30, point 5): the stock
 * number to quote on the phone, the VIN and colour when there are some, and the record's facts,
 * stored values over the title's.
 */
function cartFacts(cart: GolfCartDetail, spec: Specifications): (readonly [string, string])[] {
  const yesNo = (value: boolean) => (value ? 'Yes' : 'No')
  const showroom = showroomByKey(cart.location)
  return [
    ['Stock Number', cart.stockNumber],
    ...(cart.vin ? [['VIN', cart.vin] as const] : []),
    ['Condition', conditionLabels[cart.category as Condition] ?? categoryLabel(cart.category)],
    ...(cart.color ? [['Color', cart.color] as const] : []),
    ['Seats', formatRange(spec.seats)],
    ['Battery', spec.battery],
    ['Street Legal', yesNo(cart.streetLegal)],
    ['Lifted', yesNo(cart.lifted)],
    ...(showroom ? [['Location', showroom.name] as const] : []),
  ]
}

/** The maker's suggested price, and what the buyer saves when our price is below it. */
function MsrpLine({ cart }: { cart: Pick<GolfCartDetail, 'price' | 'msrp'> }) {
  const saving = msrpSaving(cart)
  return (
    <p className="gc-vehicle__msrp" part="msrp">
      MSRP {saving === null ? formatPrice(cart.msrp!) : <s>{formatPrice(cart.msrp!)}</s>}
      {saving !== null && (
        <>
          {' '}
          <strong className="gc-vehicle__saving">You save {formatPrice(saving)}</strong>
        </>
      )}
    </p>
  )
}

/** Where the cart stands (PRODUCT.md, "cart location"): its showroom, the address as a map link, and its phone. */
function ShowroomLine({ showroom, sold }: { showroom: Location; sold: boolean }) {
  return (
    <div className="gc-vehicle__location" part="location">
      <MapPin aria-hidden="true" size={20} />
      <p>
        {sold ? 'Was at our' : 'At our'} <strong>{showroom.name} showroom</strong>
        {showroom.address && (
          <>
            <br />
            <a href={mapsSearchUrl(showroom)} target="_blank" rel="noopener noreferrer">
              {formatAddress(showroom.address)}
              <span className="gc-sr-only"> (map, opens in a new tab)</span>
            </a>
          </>
        )}
        <br />
        <a href={`tel:${showroom.phone.tel}`}>{showroom.phone.display}</a>
      </p>
    </div>
  )
}

/** Where the site's phone bar sends Hold: the deposit's button and form on the page. */
export const holdAnchor = 'hold-cart'

/**
 * Get Quote for this cart; for a sold one, a quote on a similar cart that still names the sold
 * one, so the dealer knows what the shopper wanted (the form says it is sold).
 */
function QuoteButton({ cart, contactHref }: { cart: Pick<GolfCartDetail, 'slug' | 'status'>; contactHref: (slug?: string) => string }) {
  return (
    <a className="gc-button gc-button--primary" part="button" href={contactHref(cart.slug)}>
      {cart.status === 'sold' ? 'Get a Quote on a Similar Cart' : 'Get Quote'}
    </a>
  )
}

/** Listed carts nearest in price to a sold one. */
function SimilarCarts(props: { slug: string; headingLevel: 1 | 2; vehicleHref: (slug: string) => string }) {
  const trpc = useTRPC()
  const { data } = useQuery(trpc.cart.similar.queryOptions({ slug: props.slug, limit: featuredCount }))
  if (!data || data.length === 0) return null
  const Sub = `h${props.headingLevel + 1}` as 'h2' | 'h3'
  return (
    <section className="gc-vehicle__section" part="similar">
      <Sub className="gc-heading">Similar Golf Carts</Sub>
      <CartGrid carts={data} vehicleHref={props.vehicleHref} headingLevel={(props.headingLevel + 2) as 3 | 4} />
    </section>
  )
}

function VehicleSkeleton() {
  return (
    <div className="gc-vehicle gc-vehicle--skeleton" aria-busy="true" part="vehicle skeleton">
      <p className="gc-sr-only" role="status">
        Loading golf cart
      </p>
      <div className="gc-vehicle__top" aria-hidden="true">
        <div className="gc-vehicle__media gc-skeleton" />
        <div className="gc-vehicle__summary">
          <div className="gc-skeleton gc-skeleton--line gc-skeleton--w30" />
          <div className="gc-skeleton gc-skeleton--title" />
          <div className="gc-skeleton gc-skeleton--line" />
          <div className="gc-skeleton gc-skeleton--line gc-skeleton--w80" />
          <div className="gc-skeleton gc-skeleton--button" />
        </div>
      </div>
    </div>
  )
}
