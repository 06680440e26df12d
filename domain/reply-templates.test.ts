import { describe, expect, it } from 'vitest'
import { business } from './business.ts'
import { renderTemplate, templateInput, templateValues, unknownPlaceholders } from './reply-templates.ts'

describe('reply templates', () => {
  const values = templateValues({ firstName: ' Dana ', cartTitle: '2025 Evolution D5 Maverick' }, 'maria')

  it('fills in every placeholder, each as often as it appears', () => {
    expect(renderTemplate('Hi {firstName}! {salesperson} at {dealer} here about the {cart}. {firstName}, call {phone}.', values)).toBe(
      `Hi Dana! maria at ${business.name} here about the 2025 Evolution D5 Maverick. Dana, call ${business.tollFree.display}.`,
    )
  })

  it('names a lead without a cart "a golf cart", and leaves other braces as written', () => {
    expect(renderTemplate('About {cart} {notOne} {}', templateValues({ firstName: 'Al', cartTitle: null }, 'sam'))).toBe('About a golf cart {notOne} {}')
  })

  it('refuses a template naming a placeholder that does not exist, and says which', () => {
    expect(unknownPlaceholders('Hi {first_name} {firstName} {first_name}')).toEqual(['first_name'])
    const result = templateInput.safeParse({ name: 'Hello', body: 'Hi {first_name}' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('{first_name} is not a placeholder: use {firstName}, {cart}, {salesperson}, {dealer}, {phone}')
  })
})
