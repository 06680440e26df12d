import { describe, expect, it } from 'vitest'
import { consoleRoutes } from '../../host/staff/render.tsx'
import { plainStaffRoutes, routeKey, routeMatcher } from './routes.ts'

const routes = ['GET /staff', 'GET /staff/carts/new', 'GET /staff/carts/{id}', 'POST /staff/carts/{id}', 'GET /staff/carts/{id}/sold'].map(routeKey)
const find = routeMatcher(routes)
const matched = (method: string, path: string) => {
  const found = find(method, path)
  return found && [found.route.key, found.params]
}

describe('the one matcher of console addresses (the guard\'s and the page router\'s)', () => {
  it('matches as Express routes: any case, one trailing slash, a HEAD as its GET', () => {
    expect(matched('GET', '/staff')).toEqual(['GET /staff', {}])
    expect(matched('GET', '/staff/')).toEqual(['GET /staff', {}])
    expect(matched('GET', '/STAFF/Carts/New')).toEqual(['GET /staff/carts/new', {}])
    expect(matched('GET', '/staff/carts/new/')).toEqual(['GET /staff/carts/new', {}])
    expect(matched('HEAD', '/staff/carts/12/')).toEqual(['GET /staff/carts/{id}', { id: '12' }])
    expect(matched('POST', '/staff/carts/12')).toEqual(['POST /staff/carts/{id}', { id: '12' }])
    expect(matched('POST', '/staff/carts/12/sold')).toBeUndefined()
  })

  it('puts a fixed address before a pattern, whatever the order written', () => {
    expect(routeMatcher([...routes].reverse())('GET', '/staff/carts/new')?.route.key).toBe('GET /staff/carts/new')
  })

  it('decodes a parameter, and matches nothing for one that does not decode or spans segments', () => {
    expect(matched('GET', '/staff/carts/a%20b')).toEqual(['GET /staff/carts/{id}', { id: 'a b' }])
    expect(matched('GET', '/staff/carts/%E0%A4%A')).toBeUndefined()
    expect(matched('GET', '/staff/carts/1/2')).toBeUndefined()
    expect(matched('GET', '/staff//')).toBeUndefined()
    expect(matched('GET', '/staffing')).toBeUndefined()
  })

  it('is the guard\'s matcher over the plain routes and the pages\' own: one address, one rule, in any case', () => {
    const guard = routeMatcher([...plainStaffRoutes, ...consoleRoutes])
    for (const path of ['/staff/leads/7', '/Staff/Leads/7', '/staff/leads/7/']) expect(guard('GET', path)?.route.key).toBe('GET /staff/leads/{id}')
    expect(guard('GET', '/staff/leads/dashboard/')?.route.key).toBe('GET /staff/leads/dashboard')
    expect(guard('GET', '/staff/leads/dashboard.csv')?.route.key).toBe('GET /staff/leads/dashboard.csv')
    expect(guard('GET', '/staff/carts/12/quick')).toBeUndefined()
    expect(guard('POST', '/staff/carts/12/quick')?.route.rule).toEqual(['sales', 'change prices, statuses and what is featured'])
  })
})
