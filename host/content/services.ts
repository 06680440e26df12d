import { business, inWords, showrooms } from '../../domain/business.ts'
import type { Interest } from '../../domain/inquiry.ts'
import { financingHeadline } from '../../domain/payment.ts'
import { paths } from '../../domain/site-paths.ts'

/**
 * The four service cards on /services (docs/PRODUCT.md, "Services"), in the dealer's own
 * words.
 */
export interface ServiceOffering {
  id: 'sales' | 'service' | 'custom' | 'parts'
  title: string
  /** One or two sentences. */
  summary: string
  /** Five short feature lines, 3-8 words each. */
  features: readonly [string, string, string, string, string]
  /**
   * The card's own button beside Call: what a visitor on that card wants to ask, with the
   * contact form's interest it files the lead under (none where no interest fits: a sales or
   * parts question must not be filed as service). `href`, when given, is where it leads instead
   * of the contact form: Schedule Service opens the service request (`/services/request`).
   */
  ask: { label: string; interest?: Interest; href?: string }
}

export const serviceOfferings: readonly ServiceOffering[] = [
  {
    id: 'sales',
    title: 'New & Used Golf Cart Sales',
    summary:
      `We stock new Evolution and Denago carts at our ${inWords(showrooms.length)} showrooms and help you match seating, trim and street-legal setup to how you will use the cart. We take trade-ins on any make, and we sell those pre-owned trade-ins when we have them.`,
    features: [
      'New Evolution and Denago carts in stock',
      'Trade-ins accepted on any make',
      'Pre-owned trade-ins when available',
      financingHeadline,
      `Delivery across all ${business.claims.countiesServed} counties`,
    ],
    ask: { label: 'Get a Quote' },
  },
  {
    id: 'service',
    title: 'Service & Repair',
    summary:
      'Our technicians maintain and repair electric carts of every major brand, whether you bought yours from us or not. Call us to book a visit at the nearest showroom.',
    features: [
      'Battery testing, watering and replacement',
      'Motor, controller and charger diagnostics',
      'Brake, steering and suspension repair',
      'Spring tune-ups and winter storage prep',
      'Warranty repairs on the brands we sell',
    ],
    // Schedule Service is a service request (make, model, what it needs), not a general message.
    ask: { label: 'Schedule Service', interest: 'service', href: paths.serviceRequestForm },
  },
  {
    id: 'custom',
    title: 'Custom Builds & Modifications',
    summary:
      'We set up carts for the way you actually use them, from a simple lift kit to a full street-legal package. Tell us what you want and we will quote the parts and labor before any work starts.',
    features: [
      'Lift kits, custom wheels and tires',
      'Street-legal lights, mirrors and seat belts',
      'Lithium battery conversions',
      'Custom seats, colors and trim',
      'Sound systems and LED accent lighting',
    ],
    ask: { label: 'Plan a Custom Build', interest: 'service' },
  },
  {
    id: 'parts',
    title: 'Parts & Accessories',
    summary:
      'Genuine manufacturer parts and proven accessories for Evolution, Denago, Club Car, EZ-GO and other carts. Common items are on our shelves, and we order the rest for you.',
    features: [
      'Genuine parts for all major brands',
      'Batteries, chargers and cables',
      'Enclosures, covers and windshields',
      'Rear seats, cargo boxes and racks',
      'Special orders held for showroom pickup',
    ],
    ask: { label: 'Ask About Parts' },
  },
]
