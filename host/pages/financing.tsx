import { BadgePercent, CalendarRange, Check, FileText, Zap } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { financingHeadline, financingOffer, longestTerm, monthlyFromTerms, termChoices } from '../../domain/payment.ts'
import { paths } from '../../domain/site-paths.ts'
import { Hero } from '../components/hero.tsx'
import { InfoCard } from '../components/info-card.tsx'
import { island } from '../islands/island.tsx'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import type { Route } from '../page.ts'

const benefits = [
  financingHeadline,
  `Terms of ${termChoices}`,
  'Fixed monthly payments you can plan around',
  'Trade-ins count toward your down payment',
  'No penalty for paying off early',
  'One application covers carts, accessories and custom builds',
]

/** The documents to bring, one per line. */
const documents = financingOffer.documents.map((d) => d.charAt(0).toUpperCase() + d.slice(1))

const meta = () => ({
  title: 'Golf Cart Financing',
  description: `Finance a new golf cart with ${financingHeadline} and terms up to ${longestTerm} months. Estimate your payment online. ${callPrompt}`,
  keywords: ['golf cart financing NJ', `${financingOffer.apr}% APR golf cart`, 'golf cart payment calculator', 'golf cart loan'],
  pageType: 'financing' as const,
  path: paths.financing,
})

function FinancingPage() {
  useDocumentMeta(meta())
  return (
    <>
      <Hero
        title="Golf Cart Financing"
        subtitle={`${financingHeadline}, terms up to ${longestTerm} months, and an answer the same day in most cases.`}
        actions={
          <a className="gc-button gc-button--primary" href={paths.contact}>
            Ask About Financing
          </a>
        }
      />
      <section className="section section--tint" aria-label="Financing highlights">
        <div className="container">
          <div className="card-grid card-grid--three">
          <InfoCard icon={<BadgePercent aria-hidden="true" />} title={`${financingOffer.apr}% APR Available`} level={2}>
            On {financingOffer.models} of new Evolution and Denago carts, {financingOffer.condition}.
          </InfoCard>
          <InfoCard icon={<CalendarRange aria-hidden="true" />} title="Flexible Terms" level={2}>
            Choose {termChoices} to fit your budget.
          </InfoCard>
          <InfoCard icon={<Zap aria-hidden="true" />} title="Quick Approval" level={2}>
            Most applications are answered the same business day.
          </InfoCard>
        </div>
        </div>
      </section>
      <section className="section" aria-label="Benefits, documents and calculator">
        <div className="container split split--top">
          <div className="stack">
            <div>
              <h2 className="section__title">Financing Benefits</h2>
              <ul className="check-list">
                {benefits.map((b) => (
                  <li key={b}>
                    <Check aria-hidden="true" size={18} /> {b}
                  </li>
                ))}
              </ul>
            </div>
            <div>
              <h2 className="section__title">What You'll Need</h2>
              <ul className="check-list">
                {documents.map((d) => (
                  <li key={d}>
                    <FileText aria-hidden="true" size={18} /> {d}
                  </li>
                ))}
              </ul>
            </div>
            <p className="fine-print">
              Financing is provided by third-party lenders and subject to credit approval. Call{' '}
              <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a> for current offers.
            </p>
            <p className="fine-print" id="monthly-price">
              The "From $X/mo" on each cart is this calculator's payment for its price with {monthlyFromTerms}, rounded up to
              the dollar; tax, title and fees are not included.
            </p>
          </div>
          {island('payment-calculator', {})}
        </div>
      </section>
    </>
  )
}

export const financingRoute: Route = { Page: FinancingPage, meta }
