/**
 * Phone numbers as the dealer's records compare them (PRODUCT.md "customers": "the same phone
 * (digits only)") and as texts are addressed (E.164, which Twilio requires). No schema library,
 * so the widgets, the console and the server share it.
 */

/** An extension typed after the number ("x12", "ext. 12"): not part of the line a text reaches. */
const extension = /(?:x|ext\.?)\s*\d+\s*$/i

/**
 * The key one person's number is known by: its digits, the last ten of them (so "+1 (609)
 * 555-0123" and "609.555.0123" are one number), without an extension. Fewer than seven digits
 * is no number. Migration 0036 reads old leads' phones the same way.
 */
export function phoneKey(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').replace(extension, '').replace(/\D/g, '')
  return digits.length >= 7 ? digits.slice(-10) : null
}

/**
 * The number as Twilio addresses it (E.164): a ten-digit North American number, with or without
 * its leading 1, becomes +1 and the ten digits; a number typed with a leading + keeps its digits
 * (a visitor from abroad). Anything else cannot be texted: null.
 */
export function textAddress(phone: string | null | undefined): string | null {
  const typed = (phone ?? '').replace(extension, '').trim()
  const digits = typed.replace(/\D/g, '')
  if (typed.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null
  if (digits.length === 10) return `+1${digits}`
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`
  return null
}

/** An E.164 number as a person reads it: "+16095550123" is "(609) 555-0123". */
export function readablePhone(address: string): string {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(address)
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : address
}
