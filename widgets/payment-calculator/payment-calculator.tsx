import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { defaultPaymentTerms, defaultTerm, financingOffer, formatMoney, monthlyPayment, type PaymentResult, paymentTerms } from '../../domain/payment.ts'
import { useKeepTypedEarly } from '../shared/typed-early.ts'

export interface PaymentCalculatorProps {
  /** A cart price to start from. */
  price?: number | string
  headingLevel?: 2 | 3
}

/**
 * The financing calculator (docs/PRODUCT.md, "Financing and the payment calculator"). The result appears
 * only once Calculate Payment is pressed; at 0% APR it is (price - down payment) / term.
 */
export function PaymentCalculator({ headingLevel = 2, ...props }: PaymentCalculatorProps) {
  const id = useId()
  const [price, setPrice] = useState(props.price === undefined ? '' : String(props.price))
  const [down, setDown] = useState('')
  const [term, setTerm] = useState('')
  const [apr, setApr] = useState(String(defaultPaymentTerms.apr))
  const [result, setResult] = useState<PaymentResult | null>(null)
  useEffect(() => {
    if (props.price !== undefined) setPrice(String(props.price))
  }, [props.price])

  const form = useRef<HTMLFormElement>(null)
  useKeepTypedEarly(form, { price: [price, setPrice], downPayment: [down, setDown], term: [term, setTerm], apr: [apr, setApr] })

  const H = `h${headingLevel}` as const
  const calculate = (event: FormEvent) => {
    event.preventDefault()
    setResult(monthlyPayment({ price, downPayment: down, term, apr }))
  }

  return (
    <section className="gc-calculator" part="calculator" aria-labelledby={`${id}-heading`}>
      <H id={`${id}-heading`} className="gc-heading" part="heading">
        Payment Calculator
      </H>
      <form ref={form} className="gc-form" onSubmit={calculate} part="form" noValidate>
        <div className="gc-form__row">
          <Field id={`${id}-price`} label="Cart Price ($)">
            <input id={`${id}-price`} name="price" className="gc-input" part="input" inputMode="decimal" autoComplete="off" value={price} onChange={(e) => setPrice(e.currentTarget.value)} />
          </Field>
          <Field id={`${id}-down`} label="Down Payment ($)">
            <input id={`${id}-down`} name="downPayment" className="gc-input" part="input" inputMode="decimal" autoComplete="off" value={down} onChange={(e) => setDown(e.currentTarget.value)} />
          </Field>
        </div>
        <div className="gc-form__row">
          <Field id={`${id}-term`} label="Loan Term" hint={`${defaultTerm} months if none is chosen`}>
            <select
              id={`${id}-term`}
              name="term"
              className="gc-input"
              part="input"
              value={term}
              onChange={(e) => setTerm(e.currentTarget.value)}
              aria-describedby={`${id}-term-hint`}
            >
              <option value="">Select a term</option>
              {paymentTerms.map((months) => (
                <option key={months} value={months}>
                  {months} months
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-apr`} label="APR (%)" hint={`${financingOffer.apr}% on ${financingOffer.models} ${financingOffer.condition}`}>
            <input id={`${id}-apr`} name="apr" className="gc-input" part="input" inputMode="decimal" autoComplete="off" value={apr} onChange={(e) => setApr(e.currentTarget.value)} aria-describedby={`${id}-apr-hint`} />
          </Field>
        </div>
        <button type="submit" className="gc-button gc-button--primary" part="button">
          Calculate Payment
        </button>
      </form>
      <div className="gc-calculator__result" aria-live="polite" part="result">
        {result && (
          <>
            <p className="gc-calculator__label">Estimated monthly payment</p>
            <p className="gc-calculator__amount">{formatMoney(result.monthly)}</p>
            {result.note === 'no-price' ? (
              <p>Enter the cart's price to see a monthly payment.</p>
            ) : result.note === 'down-payment-covers-price' ? (
              <p>Your down payment covers the whole price, so there is nothing left to finance.</p>
            ) : (
              <p>
                {formatMoney(result.financed)} over {result.term} months at {result.apr}% APR
                {result.apr === 0 ? ', no interest.' : '.'} Estimate only; your rate depends on credit approval.
              </p>
            )}
          </>
        )}
      </div>
    </section>
  )
}

function Field(props: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="gc-field" part="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <p id={`${props.id}-hint`} className="gc-field__hint">
          {props.hint}
        </p>
      )}
    </div>
  )
}
