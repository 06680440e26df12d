import type { ContactFormProps } from '../../widgets/contact-form/contact-form.tsx'
import type { RentalRequestProps } from '../../widgets/rental-request/rental-request.tsx'
import type { PaymentCalculatorProps } from '../../widgets/payment-calculator/payment-calculator.tsx'
import type { GalleryProps } from '../../widgets/vehicle-detail/gallery.tsx'
import type { HoldFormProps } from '../../widgets/vehicle-detail/hold-form.tsx'
import type { BookVisitProps } from '../../widgets/book-visit/book-visit.tsx'

/**
 * The parts of the site that run in the browser (docs/decisions/0014-islands.md), by name, with
 * the props each gets. Everything else on a page is HTML from the server and ships no script;
 * the header's menu button is a few lines of plain script in the entry (host/islands/menu.ts), and
 * so is the inventory's in-place search (host/islands/inventory.ts).
 * Props travel in the page as JSON, so they are data only: no functions.
 */
export interface IslandProps {
  /** The vehicle page's photos: keys, swipe, thumbnails, full screen. */
  gallery: GalleryProps
  /** An available cart's "Hold it with a $500 deposit": the form that sends the shopper to Stripe's page. */
  hold: Pick<HoldFormProps, 'cartId' | 'cartTitle' | 'offer' | 'source'>
  'payment-calculator': PaymentCalculatorProps
  'contact-form': Pick<ContactFormProps, 'interest' | 'cartSlug' | 'source' | 'action' | 'initial'>
  /** /rentals/request: the quote as the visitor chooses (price, delivery estimate, availability). */
  'rental-request': Pick<RentalRequestProps, 'cartType' | 'plan' | 'county' | 'source' | 'action' | 'initial' | 'sent' | 'heading'>
  /** "Book a test drive" on the vehicle page, the drop-off time on /services/request: free slots as the shopper chooses. */
  'book-visit': Pick<BookVisitProps, 'showroom' | 'kind' | 'cart' | 'source' | 'heading' | 'headingLevel' | 'closed' | 'knownCart' | 'action' | 'anchor' | 'day' | 'initial' | 'booked'>
}

export type IslandName = keyof IslandProps

/**
 * When an island whose code loads later starts (host/islands/reach.ts): `reached`, on the
 * shopper's first focus, press, touch or typing in it; `seen`, also when it comes within a
 * screen of view. Until then it is the server's HTML, which takes typing and posts without script.
 */
export type IslandStart = 'reached' | 'seen'

/**
 * What an island needs around it. `data`: the server's query cache (the page's #gc-state) and
 * the API; a page with no such island sends no state at all. `toasts`: the notification region.
 * `starts`: when its code loads and it hydrates, if not with the page. For a form that keeps
 * what was typed before its script ran (`useKeepTypedEarly`), or that shows nothing to type
 * into before it is opened (Book a test drive on the vehicle page, closed, is a link until then).
 */
export const islandNeeds: Readonly<Record<IslandName, { data?: boolean; toasts?: boolean; starts?: IslandStart }>> = {
  gallery: {},
  hold: { data: true },
  'payment-calculator': {},
  'contact-form': { data: true, toasts: true, starts: 'reached' },
  'rental-request': { data: true, toasts: true, starts: 'reached' },
  'book-visit': { data: true, toasts: true, starts: 'seen' },
}

export function isIslandName(name: string): name is IslandName {
  return Object.hasOwn(islandNeeds, name)
}

/**
 * useId's prefix for the n-th island of a page, the same on the server and in the browser, so
 * ids rendered in one root never collide with another's.
 */
export const islandIdPrefix = (index: number) => `gc-i${index}-`
