import { ArrowDown, BatteryFull, Clock, DollarSign, MapPin, Phone, ShieldCheck, Truck } from 'lucide-react'
import type { ReactNode } from 'react'
import { business, formatHours } from '../../domain/business.ts'
import { counties } from '../../domain/counties.ts'
import { rentalCartTypes, rentalTerms } from '../../domain/rental-plans.ts'
import { paths } from '../../domain/site-paths.ts'
import { RentalFootnotes, RentalPlans } from '../../widgets/rental-plans/rental-plans.tsx'
import { CallBlock } from '../components/call-block.tsx'
import { Hero } from '../components/hero.tsx'
import { InfoCard } from '../components/info-card.tsx'
import { Section } from '../components/section.tsx'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import type { Route } from '../page.ts'

const featureIcons = [ShieldCheck, BatteryFull, Clock, MapPin, ShieldCheck, DollarSign]

/** The six rental promises, shared by /rentals and every county rental page. */
export function RentalFeatures() {
  return (
    <div className="card-grid card-grid--three">
      {rentalTerms.features.map((feature, i) => {
        const Icon = featureIcons[i] ?? Truck
        return (
          <InfoCard key={feature.title} icon={<Icon aria-hidden="true" />} title={feature.title}>
            {feature.text}
          </InfoCard>
        )
      })}
    </div>
  )
}

/** "Call to Book Now" and "View Rental Plans" (which glides down to the plans). */
export function RentalActions(): ReactNode {
  return (
    <>
      <a className="gc-button gc-button--primary" href={`tel:${business.tollFree.tel}`}>
        <Phone aria-hidden="true" size={18} /> Call to Book Now
      </a>
      {/* Glides down (site.css) and puts focus on the plans, as the browser does for a link to a part of the page. */}
      <a className="gc-button gc-button--secondary" href="#rental-plans">
        <ArrowDown aria-hidden="true" size={18} /> View Rental Plans
      </a>
    </>
  )
}

/** The hero's panel: what a day, a week and a month cost for each cart (docs/PRODUCT.md, "Rentals"). */
export function RentalPrices() {
  const columns = ['Daily', 'Weekly', 'Monthly'] as const
  return (
    <div className="price-panel">
      <table>
        <caption className="price-panel__title">Rental Prices</caption>
        <thead>
          <tr>
            <th scope="col">Cart</th>
            {columns.map((title) => (
              <th key={title} scope="col">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rentalCartTypes.map((type) => (
            <tr key={type.key}>
              <th scope="row">{type.title}</th>
              {columns.map((title) => (
                <td key={title}>{type.plans.find((plan) => plan.title === title)!.price}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        Delivered charged and ready. Delivery is {rentalTerms.deliveryFeePerMile}/mile beyond {rentalTerms.freeDeliveryMiles}{' '}
        miles.
      </p>
    </div>
  )
}

/**
 * After the plans, in docs/PRODUCT.md's order: the help block, then the terms the plans' asterisks point to.
 * Booking is by phone in showroom hours (closed Sunday); the line open around the clock is
 * support for renters who have a cart.
 */
export function RentalHelpAndTerms(props: { text: string; callLabel?: string }) {
  const open = business.hours.filter((h) => h.opens).map(formatHours).join(', ')
  return (
    <>
      <CallBlock
        title="Need Help Choosing?"
        text={`${props.text} Book by phone (${open}); once you have a cart, our support line answers 24/7.`}
        callLabel={props.callLabel}
      />
      <section className="section section--terms" aria-label="Rental terms">
        <div className="container">
          <RentalFootnotes />
        </div>
      </section>
    </>
  )
}

const meta = () => ({
  title: 'Golf Cart Rentals in New Jersey',
  description: `Rent a street-legal 4 seater, 6 seater or utility golf cart by the day, weekend, week or month, delivered and fully charged. ${callPrompt}`,
  keywords: ['golf cart rentals NJ', 'golf cart rental near me', 'beach golf cart rental', 'weekly golf cart rental'],
  pageType: 'rentals' as const,
  path: paths.rentals,
})

function RentalsPage() {
  useDocumentMeta(meta())
  return (
    <>
      <Hero
        title="Golf Cart Rentals"
        subtitle="Street-legal 4 seaters, 6 seaters and utility carts, delivered charged and ready, by the day, the week or the month."
        actions={<RentalActions />}
        aside={<RentalPrices />}
      />
      <Section title="Why Rent From Us" tone="tint">
        <RentalFeatures />
      </Section>
      <section className="section">
        <div className="container">
          <RentalPlans id="rental-plans" footnotes={false} />
        </div>
      </section>
      <RentalHelpAndTerms text="Tell us how many people, how long and where, and we'll recommend the right cart and plan." />
      <Section title="Rentals by County" tone="tint">
        <ul className="link-columns">
          {counties.map((c) => (
            <li key={c.value}>
              <a href={paths.countyRentals(c.value)}>{c.name} County Golf Cart Rentals</a>
            </li>
          ))}
        </ul>
      </Section>
    </>
  )
}

export const rentalsRoute: Route = { Page: RentalsPage, meta }
