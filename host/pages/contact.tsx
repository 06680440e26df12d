import { Clock, CreditCard, HelpCircle, Mail, Phone, ShoppingCart, Wrench } from 'lucide-react'
import { business, formatHours } from '../../domain/business.ts'
import { financingHeadline, longestTerm } from '../../domain/payment.ts'
import { contactFormAnchor, paths } from '../../domain/site-paths.ts'
import { Hero } from '../components/hero.tsx'
import { InfoCard } from '../components/info-card.tsx'
import { island } from '../islands/island.tsx'
import { Section } from '../components/section.tsx'
import { LocationCards } from '../components/locations.tsx'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'
import { autoDealer } from '../structured-data.ts'
import { usePostedForm } from '../form-state.ts'

const meta = (siteUrl: string) => ({
  title: 'Contact Us',
  description: `Ask for a golf cart quote, book a rental, schedule service or ask about financing. We answer within ${business.claims.replyWithinHours} hours. ${callPrompt}`,
  keywords: ['contact golf cart dealer', 'golf cart quote NJ', 'golf cart showroom hours'],
  pageType: 'contact' as const,
  path: paths.contact,
  jsonLd: [autoDealer(siteUrl)],
})

function ContactPage({ search }: PageProps) {
  useDocumentMeta(meta(''))
  const query = new URLSearchParams(search)
  const posted = usePostedForm()
  return (
    <>
      <Hero
        title="Contact Us"
        subtitle={`Call, write or visit. A real person answers, and every message gets a reply within ${business.claims.replyWithinHours} hours.`}
      />
      <section className="section section--tint" aria-label="How we can help">
        <div className="container">
          <div className="card-grid card-grid--four">
          <InfoCard icon={<ShoppingCart aria-hidden="true" />} title="Sales Inquiries" level={2}>
            Prices, availability and test drives of new Evolution and Denago carts.
          </InfoCard>
          <InfoCard icon={<Wrench aria-hidden="true" />} title="Service & Repair" level={2}>
            Maintenance, batteries, repairs and upgrades for every major brand.
          </InfoCard>
          <InfoCard icon={<CreditCard aria-hidden="true" />} title="Financing" level={2}>
            {financingHeadline}, terms up to {longestTerm} months.
          </InfoCard>
          <InfoCard icon={<HelpCircle aria-hidden="true" />} title="General Questions" level={2}>
            Rentals, delivery, street-legal rules: ask us anything.
          </InfoCard>
        </div>
        </div>
      </section>
      <section className="section" aria-label="Message and contact details">
        <div className="container split split--top">
          <div className="panel" id={contactFormAnchor}>
            {query.get('sent') === '1' && (
              <p className="notice notice--success" role="status">
                <strong>Message sent successfully!</strong> We'll get back to you within {business.claims.replyWithinHours}{' '}
                hours.
              </p>
            )}
            {posted?.message && (
              <p className="notice notice--error" role="alert">
                <strong>Your message was not sent.</strong> {posted.message}
              </p>
            )}
            {island('contact-form', {
              interest: query.get('interest') ?? undefined,
              cartSlug: query.get('cart') ?? undefined,
              source: 'dealer-site',
              action: `${paths.contact}#${contactFormAnchor}`,
              initial: posted && { values: posted.values, errors: posted.errors },
            })}
          </div>
          <div className="stack">
            <h2 className="section__title">Contact Information</h2>
            <ul className="contact-list">
              <li>
                <Phone aria-hidden="true" size={20} />
                <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>
              </li>
              <li>
                <Mail aria-hidden="true" size={20} />
                <a href={`mailto:${business.email}`}>{business.email}</a>
              </li>
              <li>
                <Clock aria-hidden="true" size={20} />
                <span>
                  {business.hours.map((h) => (
                    <span key={h.days} className="contact-list__line">
                      {formatHours(h)}
                    </span>
                  ))}
                </span>
              </li>
            </ul>
          </div>
        </div>
      </section>
      <Section title="Visit Our Locations" tone="tint">
        <LocationCards showHours />
      </Section>
    </>
  )
}

export const contactRoute: Route = {
  Page: ContactPage,
  meta: ({ siteUrl }) => meta(siteUrl),
  /** Get Quote on a vehicle page: the cart arrives with the page, named above the form. */
  async prefetch({ queryClient, trpc }, _params, search) {
    const slug = search.get('cart')
    if (slug) await queryClient.prefetchQuery(trpc.cart.bySlug.queryOptions({ slug }))
  },
}
