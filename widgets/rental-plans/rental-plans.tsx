import { CalendarCheck, Phone, Truck, Users, UsersRound } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { countyByValue } from '../../domain/counties.ts'
import { type RentalCartType, rentalCartTypes, rentalTerms } from '../../domain/rental-plans.ts'
import { paths } from '../../domain/site-paths.ts'
import { resolveUrl } from '../shared/urls.ts'

export interface RentalPlansProps {
  /** A county value (`cape-may`) names the county in the heading; unknown values are ignored. */
  county?: string
  headingLevel?: 2 | 3
  /** The id the "View Rental Plans" button scrolls to. */
  id?: string
  /**
   * The terms under the plans; a page that puts its help block between the plans and the terms
   * (docs/PRODUCT.md) leaves them out here and renders `RentalFootnotes` itself.
   */
  footnotes?: boolean
  /**
   * The dealer's site, where "Request these dates" leads (`/rentals/request`): '' on the site
   * itself, the `api-base` in an embed.
   */
  siteBase?: string
}

const icons = { users: Users, 'users-round': UsersRound, truck: Truck } as const

/**
 * The three rental sections of four plans each (docs/PRODUCT.md, "Rentals"): booking is by phone,
 * and each plan's "Request these dates" opens the rental request with its cart and plan chosen.
 */
export function RentalPlans({ headingLevel = 2, footnotes = true, ...props }: RentalPlansProps) {
  const county = props.county ? countyByValue(props.county) : undefined
  const H = `h${headingLevel}` as const
  return (
    <section className="gc-rentals" id={props.id} part="rentals" tabIndex={-1}>
      <H className="gc-heading" part="heading">
        {county ? `${county.name} County Golf Cart Rental Plans` : 'Golf Cart Rental Plans'}
      </H>
      {rentalCartTypes.map((type) => (
        <CartTypePlans
          key={type.key}
          type={type}
          headingLevel={(headingLevel + 1) as 3 | 4}
          requestHref={(plan) => resolveUrl(props.siteBase ?? '', paths.rentalRequestFor({ cartType: type.key, plan, county: county?.value }))}
        />
      ))}
      {footnotes && <RentalFootnotes />}
    </section>
  )
}

/** The two rental terms, marked * on every plan. */
export function RentalFootnotes() {
  return (
    <div className="gc-footnotes" part="footnotes">
      {rentalTerms.footnotes.map((note) => (
        <p key={note}>* {note}</p>
      ))}
    </div>
  )
}

function CartTypePlans({ type, headingLevel, requestHref }: { type: RentalCartType; headingLevel: 3 | 4; requestHref: (plan: RentalCartType['plans'][number]['key']) => string }) {
  const H = `h${headingLevel}` as const
  const PlanHeading = `h${headingLevel + 1}` as 'h4' | 'h5'
  const Icon = icons[type.icon]
  return (
    <section className="gc-rental-type" aria-label={`${type.title} Rental Plans`}>
      <H className="gc-rental-type__title">
        <Icon aria-hidden="true" size={24} /> {type.title} Rental Plans
      </H>
      <ul className="gc-plans">
        {type.plans.map((plan) => (
          <li key={plan.title} className="gc-plan" part="plan">
            <div className="gc-plan__badges">
              {plan.recommended && (
                <span className="gc-badge" part="badge">
                  RECOMMENDED
                </span>
              )}
              {plan.savings && (
                <span className="gc-badge gc-badge--save" part="badge">
                  SAVE {plan.savings}
                </span>
              )}
            </div>
            <PlanHeading className="gc-plan__title">{plan.title}</PlanHeading>
            <p className="gc-plan__description">{plan.description}</p>
            <p className="gc-plan__price" part="price">
              <span className="gc-plan__amount">{plan.price}</span>
              <span className="gc-plan__period"> / {plan.period}</span>
            </p>
            <ul className="gc-plan__terms">
              <li>Renews at {plan.renewPrice}/daily term*</li>
              <li>Delivery Fee {rentalTerms.deliveryFeePerMile}/mile term*</li>
            </ul>
            <a className="gc-button gc-button--primary gc-plan__reserve" part="button" href={`tel:${business.tollFree.tel}`}>
              <Phone aria-hidden="true" size={18} /> RESERVE TODAY
              <span className="gc-sr-only">
                : call {business.tollFree.display} to book the {type.title} {plan.title} plan
              </span>
            </a>
            <a className="gc-button gc-button--outline gc-plan__request" part="button" href={requestHref(plan.key)}>
              <CalendarCheck aria-hidden="true" size={18} /> Request these dates
              <span className="gc-sr-only">
                {' '}
                for the {type.title} {plan.title} plan
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
