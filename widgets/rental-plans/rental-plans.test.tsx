import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { RentalPlans } from './rental-plans.tsx'

const section = (name: string) => within(screen.getByRole('region', { name }))

describe('RentalPlans', () => {
  it('shows three sections of four recommended plans', () => {
    render(<RentalPlans />)
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Golf Cart Rental Plans')
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent?.trim())).toEqual([
      '4 Seater Rental Plans',
      '6 Seater Rental Plans',
      'Utility Rental Plans',
    ])
    for (const name of ['4 Seater Rental Plans', '6 Seater Rental Plans', 'Utility Rental Plans']) {
      const plans = section(name).getAllByRole('listitem').filter((li) => li.classList.contains('gc-plan'))
      expect(plans.map((p) => p.querySelector('h4')?.textContent)).toEqual(['Daily', '3 Day', 'Weekly', 'Monthly'])
    }
    expect(screen.getAllByText('RECOMMENDED')).toHaveLength(12)
  })

  it('prints prices, savings, renewal and delivery lines as the product words them', () => {
    render(<RentalPlans />)
    const six = section('6 Seater Rental Plans')
    expect(six.getByText('$3,500')).toBeTruthy()
    expect(six.getByText('SAVE 60.4%')).toBeTruthy()
    expect(six.getByText('Renews at $116.67/daily term*')).toBeTruthy()
    expect(six.getAllByText('Delivery Fee $6/mile term*')).toHaveLength(4)
    expect(six.queryAllByText(/^SAVE/)).toHaveLength(3)
    expect(screen.getByText(/Rental periods are calculated in 24-hour increments/)).toBeTruthy()
  })

  it('books by phone from every plan', () => {
    render(<RentalPlans />)
    const reserve = screen.getAllByRole('link', { name: /RESERVE TODAY/ })
    expect(reserve).toHaveLength(12)
    expect(new Set(reserve.map((a) => a.getAttribute('href')))).toEqual(new Set(['tel:+18885550100']))
    expect(reserve[0]!.textContent).toContain('book the 4 Seater Daily plan')
  })

  it('names a known county in the heading and ignores an unknown one', () => {
    const view = render(<RentalPlans county="cape-may" />)
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Cape May County Golf Cart Rental Plans')
    view.rerender(<RentalPlans county="manhattan" />)
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Golf Cart Rental Plans')
  })
})
