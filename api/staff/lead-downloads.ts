import express, { type Router } from 'express'
import { sendError } from '../http/errors.ts'
import type { Services } from '../services.ts'
import { dashboardAsCsv, defaultRange, rangeProblem } from './lead-dashboard.ts'

export const leadDownloadPaths = { dashboardCsv: '/staff/leads/dashboard.csv' } as const

/**
 * The dashboard's figures as a spreadsheet: `GET /staff/leads/dashboard.csv?from=&to=`. Mounted
 * under `/staff` after the session guard (api/staff/http.ts), so without a session it answers
 * 303 to the sign-in page like every staff page, and it is never cached.
 */
export function leadDownloads(services: Services): Router {
  const routes = express.Router()
  routes.get('/leads/dashboard.csv', async (req, res, next) => {
    try {
      const fallback = defaultRange()
      const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
      const range = { from: text(req.query.from) ?? fallback.from, to: text(req.query.to) ?? fallback.to }
      const problem = rangeProblem(range)
      if (problem) return sendError(res, 400, problem)
      const csv = dashboardAsCsv(await services.staff.leadDashboard(range))
      res.set('Content-Disposition', `attachment; filename="leads-${range.from}-to-${range.to}.csv"`)
      res.type('text/csv; charset=utf-8').send(csv)
    } catch (error) {
      next(error)
    }
  })
  return routes
}
