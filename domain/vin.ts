/**
 * Vehicle identification numbers (ISO 3779; 49 CFR 565 for the check digit). Street-legal carts
 * (low-speed vehicles) carry one; golf carts that are not street-legal have none, so the record
 * keeps it optional. A VIN is 17 characters of digits and capital letters other than I, O and Q
 * (too easily read as 1 and 0), and its 9th character is a check digit computed from the others.
 */
const transliteration: Readonly<Record<string, number>> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8,
  J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
}

/** 49 CFR 565.15(c): the weight of each position; the 9th, the check digit itself, weighs 0. */
const weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const

const vinShape = /^[A-HJ-NPR-Z0-9]{17}$/

/** Upper case without spaces or dashes, as staff may type it off a plate. */
export function normalizeVin(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase()
}

/** The check digit the other 16 characters call for: "0"-"9", or "X" for a remainder of 10. */
export function vinCheckDigit(vin: string): string {
  let sum = 0
  for (let i = 0; i < 17; i++) {
    const c = vin[i]!
    const value = c >= '0' && c <= '9' ? Number(c) : (transliteration[c] ?? 0)
    sum += value * weights[i]!
  }
  const remainder = sum % 11
  return remainder === 10 ? 'X' : String(remainder)
}

/** Why a (normalized) VIN is not valid, or undefined when it is. */
export function vinProblem(vin: string): string | undefined {
  if (vin.length !== 17) return `A VIN has 17 characters; this one has ${vin.length}`
  if (!vinShape.test(vin)) return 'A VIN has only digits and capital letters, never I, O or Q'
  const expected = vinCheckDigit(vin)
  if (vin[8] !== expected) return `The check digit (9th character) should be ${expected}: check the VIN for a typo`
  return undefined
}

/** The VIN with its 9th character set to the check digit the others call for (fictional VINs for tests and the seed). */
export function withCheckDigit(vin: string): string {
  const normalized = normalizeVin(vin)
  return `${normalized.slice(0, 8)}${vinCheckDigit(normalized)}${normalized.slice(9)}`
}
