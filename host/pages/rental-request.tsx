import { Phone } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { countyByValue } from '../../domain/counties.ts'
import { isCartType, isPlanKey, rentalTerms } from '../../domain/rental-plans.ts'
import { callToConfirm } from '../../domain/rental-request.ts'
import { paths, requestFormAnchor } from '../../domain/site-paths.ts'
import { Hero } from '../components/hero.tsx'
import { usePostedForm } from '../form-state.ts'
import { island } from '../islands/island.tsx'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'
import { RentalPrices } from './rentals.tsx'

const meta = () => ({
  title: 'Request a Golf Cart Rental',
  description: `Choose a cart, a plan and your dates, see the price, the delivery fee and whether a cart is free, and we will call to confirm. ${callPrompt}`,
  keywords: ['golf cart rental request', 'golf cart rental NJ dates', 'golf cart rental delivery fee'],
  pageType: 'rentals' as const,
  path: paths.rentalRequest,
})

/**
 * `/rentals/request` (PRODUCT.md, "rental requests"): the request form as an island, opened with
 * the cart and plan of the card that led here (`?cartType=&plan=`), and posted without JavaScript
 * like the contact form (host/server/contact-post.ts).
 */
function RentalRequestPage({ search }: PageProps) {
  useDocumentMeta(meta())
  const query = new URLSearchParams(search)
  const posted = usePostedForm()
  const cartType = query.get('cartType') ?? undefined
  const plan = query.get('plan') ?? undefined
  const county = countyByValue(query.get('county') ?? '')?.value
  const initial = posted && {
    values: Object.fromEntries(
      Object.entries({ ...posted.values, ...posted.request }).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    ),
    errors: posted.errors,
  }
  return (
    <>
      <Hero
        title="Request a Golf Cart Rental"
        subtitle={`Tell us the cart, the plan and the dates. You'll see the price, the delivery fee and whether a cart is free, and we'll call to confirm.`}
        actions={
          <a className="gc-button gc-button--secondary" href={`tel:${business.tollFree.tel}`}>
            <Phone aria-hidden="true" size={18} /> Or call {business.tollFree.display}
          </a>
        }
        aside={<RentalPrices />}
      />
      <section className="section" aria-label="Rental request">
        <div className="container split split--top">
          <div className="panel" id={requestFormAnchor}>
            {posted?.message && (
              <p className="notice notice--error" role="alert">
                <strong>Your request was not sent.</strong> {posted.message}
              </p>
            )}
            {island('rental-request', {
              cartType: isCartType(cartType) ? cartType : undefined,
              plan: isPlanKey(plan) ? plan : undefined,
              county,
              heading: county ? `Your Dates in ${countyByValue(county)!.name} County` : 'Your Dates and Details',
              source: 'dealer-site',
              action: `${paths.rentalRequest}#${requestFormAnchor}`,
              initial,
              sent: query.get('sent') === '1' || undefined,
            })}
          </div>
          <div className="stack">
            <h2 className="section__title">How a Request Works</h2>
            <ol className="steps">
              <li>Choose the cart, the plan and the day you want it, and whether you'll pick it up or we deliver.</li>
              <li>
                See the price, the delivery fee estimate ({rentalTerms.deliveryFeePerMile} a mile beyond {rentalTerms.freeDeliveryMiles} miles) and
                whether a cart is free on those dates.
              </li>
              <li>{callToConfirm}</li>
            </ol>
            <p>
              In a hurry? Call <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a> and book on the phone.
            </p>
          </div>
        </div>
      </section>
    </>
  )
}

export const rentalRequestRoute: Route = { Page: RentalRequestPage, meta }
