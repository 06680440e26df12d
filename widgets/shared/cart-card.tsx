import type { ReactNode } from 'react'
import { showroomByKey } from '../../domain/business.ts'
import { batteryLabels } from '../../domain/cart-facts.ts'
import { cartBadges, formatPrice, type GolfCart } from '../../domain/golf-cart.ts'
import { formatMonthly, monthlyFrom } from '../../domain/payment.ts'
import { formatRange } from '../../domain/specifications.ts'
import { photoSizes } from '../../domain/photos.ts'
import { useApiBase } from './api.tsx'
import { MapPinMark } from './icons.tsx'
import { CartPicture } from './photo.tsx'
import { ShortlistButtons, type Shortlists, useShortlists } from './shortlist-buttons.tsx'
import { resolveUrl } from './urls.ts'

export type HeadingLevel = 1 | 2 | 3 | 4

/**
 * One cart in a grid (PRODUCT.md, "cards"): image, the badges that tell it apart (On Hold, Used,
 * Just arrived; none on most cards), title, the showroom it stands at, seats, range and battery,
 * description, price with "From $X/mo" (the calculator's own payment at its starting terms),
 * View Details, then Compare and Save (this browser's lists: PRODUCT.md, "compare and save").
 */
export function CartCard(props: {
  cart: GolfCart
  apiBase: string
  href: string
  headingLevel: HeadingLevel
  /** Above the fold, the first cards load eagerly so they are not the slowest thing on the page. */
  eager?: boolean
  /** The very first card's image is usually the page's largest paint: fetch it first. */
  priority?: boolean
  /** Told when the visitor opens the cart; returning false keeps them here (no navigation). */
  onSelect?: (slug: string) => boolean | void
  /** This browser's compare and saved lists, read once by the grid. */
  shortlists: Shortlists
}) {
  const { cart } = props
  const showroom = showroomByKey(cart.location)
  const badges = cartBadges(cart)
  const Heading = `h${props.headingLevel}` as const
  return (
    <article className="gc-card" part="card">
      <div className="gc-card__media">
        {cart.photo ? (
          <CartPicture
            className="gc-card__image"
            part="image"
            photo={cart.photo}
            apiBase={props.apiBase}
            sizes={photoSizes.card}
            loading={props.eager || props.priority ? 'eager' : 'lazy'}
            fetchPriority={props.priority ? 'high' : undefined}
            fallbackWidth={480}
          />
        ) : (
          <img
            className="gc-card__image"
            part="image"
            src={resolveUrl(props.apiBase, cart.imageUrl)}
            alt={cart.title}
            width={800}
            height={600}
            loading={props.eager || props.priority ? 'eager' : 'lazy'}
            fetchPriority={props.priority ? 'high' : undefined}
            decoding="async"
          />
        )}
        {badges.length > 0 && (
          <p className="gc-card__badges">
            {badges.map((badge) => (
              <span key={badge.kind} className={`gc-badge gc-badge--${badge.kind}`} part={badge.kind === 'hold' || badge.kind === 'sold' ? 'badge status' : 'badge'}>
                {badge.label}
              </span>
            ))}
          </p>
        )}
      </div>
      <div className="gc-card__body">
        <Heading className="gc-card__title">{cart.title}</Heading>
        {showroom && (
          <p className="gc-card__location" part="location">
            <MapPinMark size={16} />
            {showroom.name} showroom
          </p>
        )}
        <ul className="gc-card__specs" part="specs" aria-label="Specifications">
          <li>{formatRange(cart.specs.seats)} seats</li>
          <li>{formatRange(cart.specs.rangeMiles)} mi range</li>
          <li>{batteryLabels[cart.specs.battery]}</li>
        </ul>
        <p className="gc-card__description">{cart.description}</p>
        <div className="gc-card__footer">
          <p className="gc-card__prices">
            <span className="gc-card__price" part="price">
              {formatPrice(cart.price)}
            </span>
            <span className="gc-card__monthly" part="monthly">
              From {formatMonthly(monthlyFrom(cart.price))}
            </span>
          </p>
          <a
            className="gc-button gc-button--primary"
            part="button"
            href={props.href}
            onClick={(event) => {
              if (props.onSelect?.(cart.slug) === false) event.preventDefault()
            }}
          >
            View Details<span className="gc-sr-only"> for {cart.title}</span>
          </a>
        </div>
        <ShortlistButtons slug={cart.slug} title={cart.title} lists={props.shortlists} />
      </div>
    </article>
  )
}

/** A placeholder with the card's exact shape, so nothing moves when the data arrives. */
export function CartCardSkeleton() {
  return (
    <div className="gc-card gc-card--skeleton" aria-hidden="true" part="card skeleton">
      <div className="gc-card__media gc-skeleton" />
      <div className="gc-card__body">
        <div className="gc-skeleton gc-skeleton--line gc-skeleton--w70" />
        <div className="gc-skeleton gc-skeleton--line gc-skeleton--w30" />
        <div className="gc-skeleton gc-skeleton--line" />
        <div className="gc-skeleton gc-skeleton--line gc-skeleton--w85" />
        <div className="gc-skeleton gc-skeleton--button" />
      </div>
    </div>
  )
}

/** The grid while its carts load: `count` placeholder cards, after an optional announcement. */
export function CartSkeletonGrid({ count, children }: { count: number; children?: ReactNode }) {
  return (
    <div className="gc-grid" part="grid" aria-busy="true">
      {children}
      {Array.from({ length: count }, (_, i) => (
        <CartCardSkeleton key={i} />
      ))}
    </div>
  )
}

/** The grid of cards the inventory and the featured list share. */
export function CartGrid(props: {
  carts: readonly GolfCart[]
  vehicleHref: (slug: string) => string
  /** The level of each card's title. */
  headingLevel: HeadingLevel
  /** How many of the first cards load their image eagerly (the first of them with priority). */
  eager?: number
  /** Set while older carts stand in for the ones being fetched. */
  busy?: boolean
  onSelect?: (slug: string) => boolean | void
}) {
  const apiBase = useApiBase()
  const shortlists = useShortlists()
  const eager = props.eager ?? 0
  return (
    <div className="gc-grid" part="grid" aria-busy={props.busy}>
      {props.carts.map((cart, i) => (
        <CartCard
          key={cart.id}
          cart={cart}
          apiBase={apiBase}
          href={props.vehicleHref(cart.slug)}
          headingLevel={props.headingLevel}
          eager={i < eager}
          priority={eager > 0 && i === 0}
          onSelect={props.onSelect}
          shortlists={shortlists}
        />
      ))}
    </div>
  )
}
