import { defineWidget } from '../shared/define-widget.tsx'
import css from './payment-calculator.css?inline'
import { PaymentCalculator } from './payment-calculator.tsx'

/**
 * `<gc-payment-calculator>`: monthly payment from price, down payment, term and APR.
 *
 * Attributes: `price` (a starting cart price).
 * Parts: root, calculator, heading, form, button, result.
 */
defineWidget({
  tag: 'gc-payment-calculator',
  attributes: { price: 'string' },
  styles: [css],
  render: (a) => <PaymentCalculator price={a.price} />,
})
