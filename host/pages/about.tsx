import { Award, Handshake, HeartHandshake, Wrench } from 'lucide-react'
import { business, inWords, listInWords, openDays, showrooms } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { ClaimStats, prefetchCartsInStock } from '../components/claim-stats.tsx'
import { Hero } from '../components/hero.tsx'
import { InfoCard } from '../components/info-card.tsx'
import { Section } from '../components/section.tsx'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import type { Route } from '../page.ts'

const meta = () => ({
  title: 'About Us',
  description: `${business.name} has sold, rented and serviced golf carts in New Jersey since ${business.foundedYear}: ${business.claims.happyCustomers} happy customers, ${inWords(showrooms.length)} showrooms. ${callPrompt}`,
  keywords: ['about Jersey Cart Co.', 'New Jersey golf cart dealer', 'golf cart showroom NJ'],
  pageType: 'about' as const,
  path: paths.about,
})

function AboutPage() {
  useDocumentMeta(meta())
  const { claims } = business
  return (
    <>
      <Hero
        title={`About ${business.name}`}
        subtitle={`A New Jersey family of golf cart people since ${business.foundedYear}.`}
      />
      <section className="section" aria-labelledby="story">
        <div className="container split">
          <div className="prose">
            <h2 id="story" className="section__title">
              Our Story
            </h2>
            <p>
              We started in {business.foundedYear} with one small lot on the shore and a simple idea: a golf cart should
              be as easy to buy, rent and keep running as it is to drive. Families wanted carts for the beach block,
              communities wanted them for their grounds crews, and nobody nearby could sell one, deliver it and fix it.
            </p>
            <p>
              Today we run {inWords(showrooms.length)} showrooms, in {listInWords(showrooms.map((s) => s.name))}, and
              deliver to all {claims.countiesServed} counties. We sell new Evolution and Denago carts, rent street-legal carts by the day or the
              month, and our certified technicians service every major brand.
            </p>
          </div>
          <ClaimStats />
        </div>
      </section>
      <Section title="What We Stand For" tone="tint">
        <div className="card-grid card-grid--four">
          <InfoCard icon={<Award aria-hidden="true" />} title="Quality First">
            We sell carts we would drive ourselves, backed by factory warranties.
          </InfoCard>
          <InfoCard icon={<HeartHandshake aria-hidden="true" />} title="Customer Service">
            A real person answers the phone, and we call back within {claims.replyWithinHours} hours.
          </InfoCard>
          <InfoCard icon={<Wrench aria-hidden="true" />} title="Expert Knowledge">
            Certified technicians and sales staff who know every model on the lot.
          </InfoCard>
          <InfoCard icon={<Handshake aria-hidden="true" />} title="Fair Pricing">
            Clear prices, honest trade-in values and no surprise fees.
          </InfoCard>
        </div>
      </Section>
      <section className="section section--center">
        <div className="container">
          <h2 className="section__title">Come See the Carts</h2>
          <p className="section__intro">
            Test drive any cart at one of our {inWords(showrooms.length)} showrooms, {openDays()}.
          </p>
          <a className="gc-button gc-button--primary" href={paths.contact}>
            Visit Our Showrooms
          </a>
        </div>
      </section>
    </>
  )
}

export const aboutRoute: Route = {
  Page: AboutPage,
  meta,
  async prefetch({ queryClient, trpc }) {
    await prefetchCartsInStock(queryClient, trpc)
  },
}
