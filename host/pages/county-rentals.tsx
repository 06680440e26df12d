import { type County, countyByValue } from '../../domain/counties.ts'
import { RentalPlans } from '../../widgets/rental-plans/rental-plans.tsx'
import { Hero } from '../components/hero.tsx'
import { Section } from '../components/section.tsx'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Params, Route } from '../page.ts'
import { paths } from '../../domain/site-paths.ts'
import { autoDealer } from '../structured-data.ts'
import { RentalActions, RentalFeatures, RentalHelpAndTerms, RentalPrices } from './rentals.tsx'

function meta(county: County, siteUrl: string): PageMeta {
  return {
    title: `${county.name} County Golf Cart Rentals`,
    description: `Golf cart rentals in ${county.name} County, New Jersey: street-legal 4 and 6 seaters and utility carts delivered to ${county.rentalTowns.slice(0, 3).join(', ')} and nearby. ${callPrompt}`,
    keywords: [
      `${county.name} County golf cart rentals`,
      `golf cart rental ${county.rentalTowns[0]} NJ`,
      `${county.name} NJ golf cart rental`,
      'street legal golf cart rental',
    ],
    pageType: 'rentals',
    path: paths.countyRentals(county.value),
    location: county,
    jsonLd: [autoDealer(siteUrl, county)],
  }
}

function CountyRentalsPage({ params }: PageProps) {
  const county = countyByValue(params.county ?? '')!
  useDocumentMeta(meta(county, ''))
  return (
    <>
      <Hero
        title={`${county.name} Golf Cart Rentals`}
        subtitle={`Flexible rental plans for every occasion in ${county.name}, New Jersey`}
        actions={<RentalActions />}
        aside={<RentalPrices />}
      />
      <Section title={`Serving ${county.name} Communities`}>
        <ul className="town-list">
          {county.rentalTowns.map((town) => (
            <li key={town}>{town}</li>
          ))}
        </ul>
      </Section>
      <Section title={`Why Choose Our ${county.name} Golf Cart Rentals?`} tone="tint">
        <RentalFeatures />
      </Section>
      <section className="section">
        <div className="container">
          <RentalPlans id="rental-plans" county={county.value} footnotes={false} />
        </div>
      </section>
      <RentalHelpAndTerms
        text={`Tell us the dates and the address in ${county.name} County and we'll match the cart and plan.`}
        callLabel={`Book Your ${county.name} Rental Today!`}
      />
    </>
  )
}

export const countyRentalsRoute: Route = {
  Page: CountyRentalsPage,
  meta: ({ siteUrl }, params: Params) => meta(countyByValue(params.county ?? '')!, siteUrl),
}
