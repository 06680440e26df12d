import { errorAnswer } from '../../api/http/errors.ts'
import type { PostedState } from '../staff/page.ts'

/**
 * A refused staff call as the form shows it: the error boundary's `{ message, issues }`
 * (api/http/errors.ts), each issue beside its field, the rest above the form, with its status.
 */
export function refusedForm(error: unknown, values: Record<string, string>, rowId?: number): { status: number; posted: PostedState } {
  const answer = errorAnswer(error, { mutation: true, staff: true })
  if (answer.failure !== undefined && answer.status !== 503) throw error
  const errors = Object.fromEntries(answer.body.issues.map((issue) => [issue.path.split('.')[0] ?? issue.path, issue.message]))
  return {
    status: answer.status,
    posted: { values, errors, message: answer.body.issues.length > 0 ? undefined : answer.body.message, rowId },
  }
}
