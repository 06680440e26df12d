import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { niceMax, WeekChart, WeekTable } from './week-chart.tsx'

const weeks = ['2026-11-09', '2026-11-16', '2026-11-23']
const series = [
  { key: 'rentals-landing', label: 'rentals-landing', counts: [3, 0, 2], total: 5 },
  { key: 'none', label: 'not given', counts: [1, 1, 0], total: 2 },
]

describe('the weekly chart', () => {
  it('is one image with a title and a summary, a bar piece per non-zero count, and a legend with totals', () => {
    const html = renderToStaticMarkup(createElement(WeekChart, { title: 'Leads per week by source', summary: '7 leads in 3 weeks.', weeks, series }))
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="[^"]+-title [^"]+-desc"/)
    expect(html).toContain('<title id=')
    expect(html).toContain('>Leads per week by source</title>')
    expect(html).toContain('>7 leads in 3 weeks.</desc>')
    expect(html.match(/<rect x=/g)).toHaveLength(4)
    expect(html).toContain('Nov 9')
    expect(html).toContain('Nov 23')
    expect(html).toContain('rentals-landing <span class="week-chart__total">(5)</span>')
    // No inline style: the pages' Content-Security-Policy allows none.
    expect(html).not.toContain('style=')
  })

  it('gives every figure in a table too, with totals', () => {
    const html = renderToStaticMarkup(createElement(WeekTable, { caption: 'By source', weeks, series }))
    expect(html).toContain('<th scope="row">Nov 16</th><td>0</td><td>1</td>')
    expect(html).toContain('<th scope="row">Total</th><td>5</td><td>2</td>')
  })

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 3, 7, 12, 31, 180, 4100].map(niceMax)).toEqual([4, 4, 10, 20, 50, 200, 5000])
  })
})
