import { ArrowDown, BatteryFull, Clock, DollarSign, MapPin, Phone, ShieldCheck, Truck } from 'lucide-react'
import type { ReactNode } from 'react'
import { business } from '../../domain/business.ts'
import { counties } from '../../domain/counties.ts'
import { rentalTerms } from '../../domain/rental-plans.ts'
import { paths } from '../../domain/site-paths.ts'
import { RentalPlans } from '../../widgets/rental-plans/rental-plans.tsx'
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
      <a
        className="gc-button gc-button--secondary"
        href="#rental-plans"
        onClick={(event) => {
          const plans = document.getElementById('rental-plans')
          if (!plans) return
          event.preventDefault()
          const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches
          plans.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' })
          plans.focus({ preventScroll: true })
          history.replaceState(history.state, '', '#rental-plans')
        }}
      >
        <ArrowDown aria-hidden="true" size={18} /> View Rental Plans
      </a>
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
      />
      <Section title="Why Rent From Us" tone="tint">
        <RentalFeatures />
      </Section>
      <section className="section">
        <div className="container">
          <RentalPlans id="rental-plans" />
        </div>
      </section>
      <CallBlock
        title="Need Help Choosing?"
        text="Tell us how many people, how long and where, and we'll recommend the right cart and plan. Booking is by phone, 7 days a week."
      />
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
