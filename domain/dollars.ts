/**
 * US dollars as en-US writes them: "$12,995", "$12,995.50", "-$5.00". Every price, payment and
 * fee the site, the widgets and the emails show goes through here (prices, "From $X/mo", the
 * calculator, rental plans and fees).
 *
 * Written out rather than made with `Intl.NumberFormat`: the first formatter a page makes sets up
 * ICU's number data, 10-80 ms of a phone's main thread in Chromium (measured on a blank page), and
 * on a partner's page that was the largest single piece of script in `<gc-inventory>`'s first
 * paint (issue #54, decision 0044). domain/dollars.test.ts holds it to Intl's output.
 *
 * `cents`: `'when-any'` shows them only for an amount that has some ($12,995 but $12,995.50);
 * `'always'` always shows two decimals (the calculator's $1,234.00).
 */
export function formatDollars(amount: number, cents: 'when-any' | 'always' = 'when-any'): string {
  // Rounded as the number is written (1.005 to 1.01, as Intl does), not as its binary value (1.00).
  const written = String(Math.abs(amount))
  const hundredths = Math.round(written.includes('e') ? Math.abs(amount) * 100 : Number(`${written}e2`))
  const whole = String(Math.floor(hundredths / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const sign = amount < 0 && hundredths > 0 ? '-' : ''
  const fraction = cents === 'always' || !Number.isInteger(amount) ? `.${String(hundredths % 100).padStart(2, '0')}` : ''
  return `${sign}$${whole}${fraction}`
}
