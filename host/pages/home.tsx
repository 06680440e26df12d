import { business, inWords, showrooms } from '../../domain/business.ts'
import { financingOffer } from '../../domain/payment.ts'
import { paths } from '../../domain/site-paths.ts'
import { FeaturedCarts, featuredQueryInput } from '../../widgets/featured-carts/featured-carts.tsx'
import { CallBlock } from '../components/call-block.tsx'
import { Hero } from '../components/hero.tsx'
import { Section } from '../components/section.tsx'
import { LocationCards } from '../components/locations.tsx'
import { NjMap } from '../components/nj-map.tsx'
import { BrandTiles, WhyChooseCards } from '../components/why-choose.tsx'
import { callPrompt, socialCard, useDocumentMeta } from '../meta.ts'
import type { MetaContext, Route } from '../page.ts'
import { autoDealer } from '../structured-data.ts'
import njMap from 'virtual:nj-map'

/** "0% financing on select models". */
const financing = `${financingOffer.apr}% financing on ${financingOffer.models}`

function meta({ siteUrl }: Pick<MetaContext, 'siteUrl'>) {
  return {
    title: `${business.name} | Electric Golf Carts in New Jersey`,
    description: `New Evolution and Denago electric golf carts, rentals, service and ${financing}, from ${inWords(showrooms.length)} showrooms serving all ${business.claims.countiesServed} New Jersey counties. ${callPrompt}`,
    keywords: ['golf carts New Jersey', 'electric golf carts NJ', 'golf cart dealer', 'golf cart rentals NJ', 'Evolution golf carts', 'Denago golf carts'],
    pageType: 'home' as const,
    path: paths.home,
    image: socialCard,
    jsonLd: [autoDealer(siteUrl)],
  }
}

function HomePage() {
  useDocumentMeta(meta({ siteUrl: '' }))
  return (
    <>
      <Hero
        image="hero"
        eyebrow={`Serving all ${business.claims.countiesServed} New Jersey counties since ${business.foundedYear}`}
        title="New Jersey's Electric Golf Cart Dealer"
        subtitle={`New Evolution and Denago carts, rentals by the day or the month, certified service and ${financing}.`}
        actions={
          <>
            <a className="gc-button gc-button--primary" href={paths.inventory}>
              View Inventory
            </a>
            <a className="gc-button gc-button--secondary" href={paths.quoteForm()}>
              Get Quote
            </a>
          </>
        }
      />
      {/* Carts first: on a phone the first featured cart is within two screens (PRODUCT.md, "phone first"). */}
      <section className="section">
        <div className="container">
          <FeaturedCarts
            vehicleHref={paths.vehicle}
            inventoryHref={paths.inventory}
            limit={featuredQueryInput().limit}
          />
        </div>
      </section>
      <Section title="Why Choose Us" tone="tint">
        <WhyChooseCards />
      </Section>
      <Section title="Brands We Carry" intro="New carts, service and parts for the names New Jersey drives.">
        <BrandTiles brands={business.brands} />
      </Section>
      <section className="section section--tint" aria-labelledby="home-about">
        <div className="container split">
          <div>
            <h2 id="home-about" className="section__title">
              Golf Carts in New Jersey Since {business.foundedYear}
            </h2>
            <p className="section__intro">
              We opened our first showroom in {business.foundedYear}. Today {inWords(showrooms.length)} showrooms along the
              shore sell, rent and service electric carts for families, communities and businesses across the state.
            </p>
            <a className="gc-button gc-button--secondary" href={paths.about}>
              Learn More<span className="gc-sr-only"> about {business.name}</span>
            </a>
          </div>
          <dl className="stats">
            <div>
              <dt>Happy Customers</dt>
              <dd>{business.claims.happyCustomers}</dd>
            </div>
            <div>
              <dt>Years Experience</dt>
              <dd>{business.claims.yearsExperience}</dd>
            </div>
          </dl>
        </div>
      </section>
      {/* The map is tall and narrow: on wide screens the showrooms it pins sit beside it. */}
      <div className="section map-and-locations">
        <div className="container map-and-locations__inner">
          <section aria-labelledby="home-map">
            <h2 id="home-map" className="section__title">
              Serving Every New Jersey County
            </h2>
            <p className="section__intro">Choose your county for local carts, rentals and delivery.</p>
            <NjMap map={njMap} countyHref={paths.countySales} />
          </section>
          <section aria-labelledby="home-locations">
            <h2 id="home-locations" className="section__title">
              Our Locations
            </h2>
            <LocationCards />
          </section>
        </div>
      </div>
      <CallBlock title="Main Contact" text="Questions about a cart, a rental or service? Talk to a real person at our toll-free number.">
        <a className="gc-button gc-button--outline" href={paths.contact}>
          Contact Us
        </a>
      </CallBlock>
    </>
  )
}

export const homeRoute: Route = {
  Page: HomePage,
  meta,
  async prefetch({ queryClient, trpc }) {
    await queryClient.prefetchQuery(trpc.cart.featured.queryOptions(featuredQueryInput()))
  },
}
