import { defineWidget } from '../shared/define-widget.tsx'
import css from './rental-plans.css?inline'
import { RentalPlans } from './rental-plans.tsx'

/**
 * `<gc-rental-plans>`: the three rental tables (4 seater, 6 seater, utility), booked by phone;
 * each plan's "Request these dates" opens the dealer's rental request (`{api-base}/rentals/request`).
 *
 * Attributes: `county` (a county value such as `cape-may`; names the county in the heading).
 * Parts: root, rentals, heading, plan, badge, price, button, footnotes.
 */
defineWidget({
  tag: 'gc-rental-plans',
  attributes: { county: 'string' },
  styles: [css],
  render: (a) => <RentalPlans county={a.county as string | undefined} siteBase={a.apiBase} />,
})
