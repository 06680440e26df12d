import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PaymentCalculator } from './payment-calculator.tsx'

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
const calculate = () => fireEvent.click(screen.getByRole('button', { name: 'Calculate Payment' }))
const amount = () => document.querySelector('.gc-calculator__amount')?.textContent

describe('PaymentCalculator', () => {
  it('shows no result until Calculate Payment is pressed', () => {
    render(<PaymentCalculator />)
    type('Cart Price ($)', '12000')
    expect(amount()).toBeUndefined()
    calculate()
    expect(amount()).toBe('$333.33')
  })

  it('divides price minus down payment by the chosen term at 0% APR', () => {
    render(<PaymentCalculator />)
    type('Cart Price ($)', '12,000')
    type('Down Payment ($)', '2000')
    type('Loan Term', '48')
    calculate()
    expect(amount()).toBe('$208.33')
    expect(screen.getByText(/over 48 months at 0% APR, no interest/)).toBeTruthy()
  })

  it('counts non-numeric amounts as 0, and asks for a price', () => {
    render(<PaymentCalculator />)
    type('Cart Price ($)', 'lots')
    calculate()
    expect(amount()).toBe('$0.00')
    expect(screen.getByText("Enter the cart's price to see a monthly payment.")).toBeTruthy()
  })

  it('starts with empty amounts that show nothing a visitor could take for a value', () => {
    render(<PaymentCalculator />)
    for (const label of ['Cart Price ($)', 'Down Payment ($)']) {
      const input = screen.getByLabelText<HTMLInputElement>(label)
      expect([input.value, input.placeholder]).toEqual(['', ''])
    }
    calculate()
    expect(amount()).toBe('$0.00')
    expect(screen.getByText("Enter the cart's price to see a monthly payment.")).toBeTruthy()
  })

  it('exposes every field and input as a part, as the README promises', () => {
    render(<PaymentCalculator />)
    expect(document.querySelectorAll('.gc-field:not([part~="field"]), .gc-input:not([part~="input"])')).toHaveLength(0)
    expect(document.querySelectorAll('[part~="field"]')).toHaveLength(4)
    expect(document.querySelectorAll('[part~="input"]')).toHaveLength(4)
  })

  it('uses the standard amortised payment when an APR is entered', () => {
    render(<PaymentCalculator price={10000} />)
    expect(screen.getByLabelText<HTMLInputElement>('Cart Price ($)').value).toBe('10000')
    type('Loan Term', '60')
    type('APR (%)', '6')
    calculate()
    expect(amount()).toBe('$193.33')
  })

  it('explains a $0.00 result when the down payment covers the price', () => {
    render(<PaymentCalculator price="9000" />)
    type('Down Payment ($)', '9500')
    calculate()
    expect(amount()).toBe('$0.00')
    expect(screen.getByText(/covers the whole price/)).toBeTruthy()
  })
})
