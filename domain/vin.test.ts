import { describe, expect, it } from 'vitest'
import { normalizeVin, vinCheckDigit, vinProblem } from './vin.ts'

describe('VIN check digit (49 CFR 565)', () => {
  it('accepts real VINs, including one whose check digit is X', () => {
    expect(vinProblem('1M8GDM9AXKP042788')).toBeUndefined()
    expect(vinProblem('11111111111111111')).toBeUndefined()
    expect(vinProblem('1HGCM82633A004352')).toBeUndefined()
  })

  it('computes the check digit from the other positions', () => {
    expect(vinCheckDigit('1M8GDM9A0KP042788')).toBe('X')
    expect(vinCheckDigit('1HGCM82603A004352')).toBe('3')
  })

  it('refuses a single mistyped character', () => {
    expect(vinProblem('1M8GDM9AXKP042789')).toMatch(/check digit .* should be/)
    expect(vinProblem('1HGCM82633A004353')).toMatch(/should be/)
  })

  it('refuses the wrong length and the letters I, O and Q', () => {
    expect(vinProblem('1M8GDM9AXKP04278')).toBe('A VIN has 17 characters; this one has 16')
    expect(vinProblem('1M8GDM9AXKP04278O')).toMatch(/never I, O or Q/)
    expect(vinProblem('1m8gdm9axkp042788')).toMatch(/capital letters/)
  })

  it('normalizes what staff type: spaces, dashes and lower case', () => {
    expect(normalizeVin(' 1m8-gdm9a xkp042788 ')).toBe('1M8GDM9AXKP042788')
  })
})
