import { CalendarCheck, Check, Phone, ShoppingCart, Sparkles, Wrench, Package } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { CallBlock } from '../components/call-block.tsx'
import { Hero } from '../components/hero.tsx'
import { serviceOfferings } from '../content/services.ts'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import type { Route } from '../page.ts'

const icons = { sales: ShoppingCart, service: Wrench, custom: Sparkles, parts: Package } as const

const meta = () => ({
  title: 'Golf Cart Sales, Service, Custom Builds and Parts',
  description: `New golf cart sales, certified service and repair, custom builds and genuine parts from ${business.name}'s four New Jersey showrooms. ${callPrompt}`,
  keywords: ['golf cart service NJ', 'golf cart repair', 'custom golf cart builds', 'golf cart parts and accessories'],
  pageType: 'services' as const,
  path: paths.services,
})

function ServicesPage() {
  useDocumentMeta(meta())
  return (
    <>
      <Hero
        title="Our Services"
        subtitle="Everything a golf cart owner needs, from the first test drive to the hundredth charge."
      />
      <section className="section" aria-label="Services">
        <div className="container">
          <ul className="card-grid card-grid--two">
            {serviceOfferings.map((offering) => {
              const Icon = icons[offering.id]
              return (
                <li key={offering.id} className="service-card">
                  <span className="info-card__icon">
                    <Icon aria-hidden="true" />
                  </span>
                  <h2 className="service-card__title">{offering.title}</h2>
                  <p>{offering.summary}</p>
                  <ul className="check-list">
                    {offering.features.map((feature) => (
                      <li key={feature}>
                        <Check aria-hidden="true" size={18} /> {feature}
                      </li>
                    ))}
                  </ul>
                  <div className="gc-actions">
                    <a className="gc-button gc-button--secondary" href={`tel:${business.tollFree.tel}`}>
                      <Phone aria-hidden="true" size={18} /> Call<span className="gc-sr-only"> about {offering.title}</span>
                    </a>
                    <a className="gc-button gc-button--primary" href={offering.ask.href ?? paths.inquiryForm(offering.ask.interest)}>
                      <CalendarCheck aria-hidden="true" size={18} /> {offering.ask.label}
                      <span className="gc-sr-only"> ({offering.title})</span>
                    </a>
                  </div>
                </li>
              )
            })}
          </ul>
        </div>
      </section>
      <CallBlock
        title="Not Sure What Your Cart Needs?"
        text="Describe the problem on the phone and we'll tell you whether it's a quick fix, a shop visit or a part we can ship."
      />
    </>
  )
}

export const servicesRoute: Route = { Page: ServicesPage, meta }
