import { business } from '../../domain/business.ts'
import { financingOffer } from '../../domain/payment.ts'
import { type County, countyByValue } from '../../domain/counties.ts'
import { FeaturedCarts, featuredQueryInput } from '../../widgets/featured-carts/featured-carts.tsx'
import { CallBlock } from '../components/call-block.tsx'
import { ClaimStats, prefetchCartsInStock } from '../components/claim-stats.tsx'
import { Hero } from '../components/hero.tsx'
import { Section } from '../components/section.tsx'
import { BrandTiles, WhyChooseCards } from '../components/why-choose.tsx'
import { countyStories } from '../content/county-stories.ts'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Params, Route } from '../page.ts'
import { paths } from '../../domain/site-paths.ts'
import { autoDealer } from '../structured-data.ts'

/** The six brand tiles on county pages. */
const countyBrands = ['Evolution', 'Denago', 'Swift EV', 'Icon', 'Club Car', 'EZ-GO'] as const

function meta(county: County, siteUrl: string): PageMeta {
  return {
    title: `${county.name} County Golf Carts`,
    description: `New electric golf carts for ${county.name} County, New Jersey, from ${county.storyTowns[0]} to ${county.storyTowns[1]}: Evolution and Denago sales, service, rentals and ${financingOffer.apr}% financing on ${financingOffer.models}. ${callPrompt}`,
    keywords: [
      `${county.name} County golf carts`,
      `golf carts for sale ${county.storyTowns[0]} NJ`,
      `electric golf carts ${county.name} County`,
      `golf cart dealer near ${county.storyTowns[1]}`,
    ],
    pageType: 'county',
    path: paths.countySales(county.value),
    location: county,
    jsonLd: [autoDealer(siteUrl, county)],
  }
}

function CountySalesPage({ params }: PageProps) {
  const county = countyByValue(params.county ?? '')!
  useDocumentMeta(meta(county, ''))
  return (
    <>
      <Hero
        title={`${county.name} County Golf Carts`}
        subtitle={`New Evolution and Denago electric golf carts, service and financing for ${county.name} County, from ${county.storyTowns[0]} to ${county.storyTowns[1]}.`}
        actions={
          <>
            <a className="gc-button gc-button--primary" href={paths.inventory}>
              Shop Golf Carts
            </a>
            <a className="gc-button gc-button--secondary" href={paths.quoteForm()}>
              Get Quote
            </a>
          </>
        }
        aside={<ClaimStats />}
      />
      <Section title={`Why ${county.name} County Chooses Us`} tone="tint">
        <WhyChooseCards />
      </Section>
      <Section title="Top Golf Cart Brands">
        <BrandTiles brands={countyBrands} monogram />
      </Section>
      <section className="section section--tint">
        <div className="container">
          <FeaturedCarts
            title={`Featured Golf Carts in ${county.name}`}
            vehicleHref={paths.vehicle}
            limit={featuredQueryInput().limit}
          />
          <p className="section__more">
            <a className="gc-button gc-button--secondary" href={paths.inventory}>
              View All Golf Carts
            </a>
          </p>
        </div>
      </section>
      <section className="section" aria-labelledby="county-story">
        <div className="container split">
          <div>
            <h2 id="county-story" className="section__title">
              Serving {county.name} Since {business.foundedYear}
            </h2>
            <p className="section__intro">{countyStories[county.value]}</p>
            <a className="gc-button gc-button--secondary" href={paths.about}>
              Learn More<span className="gc-sr-only"> about {business.name}</span>
            </a>
          </div>
          <img
            className="split__image"
            src="/images/showroom.svg"
            alt={`A ${business.name} showroom with new electric golf carts lined up outside`}
            width={1200}
            height={800}
            loading="lazy"
            decoding="async"
          />
        </div>
      </section>
      <CallBlock
        title={`Ready to Ride in ${county.name} County?`}
        text="Get a quote on a new cart, book a rental, or call and talk it through."
        call="last"
      >
        <a className="gc-button gc-button--primary" href={paths.contact}>
          Get Started
        </a>
        <a className="gc-button gc-button--outline" href={paths.countyRentals(county.value)}>
          Golf Cart Rentals
        </a>
      </CallBlock>
    </>
  )
}

export const countySalesRoute: Route = {
  Page: CountySalesPage,
  meta: ({ siteUrl }, params: Params) => meta(countyByValue(params.county ?? '')!, siteUrl),
  async prefetch({ queryClient, trpc }) {
    await Promise.all([
      queryClient.prefetchQuery(trpc.cart.featured.queryOptions(featuredQueryInput())),
      prefetchCartsInStock(queryClient, trpc),
    ])
  },
}
