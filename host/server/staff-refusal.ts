import { errorAnswer } from '../../api/http/errors.ts'
import { refusalOnForm } from '../form-state.ts'
import type { PostedState } from '../staff/page.ts'

/**
 * A refused staff call as the form shows it: the error boundary's `{ message, issues }`
 * (api/http/errors.ts), each issue beside its field, the rest above the form, with its status.
 */
export function refusedForm(error: unknown, values: Record<string, string>, rowId?: number): { status: number; posted: PostedState } {
  const answer = errorAnswer(error, { mutation: true, staff: true })
  if (answer.failure !== undefined && answer.status !== 503) throw error
  return { status: answer.status, posted: { ...refusalOnForm(answer, values, (path) => path.split('.')[0]!), rowId } }
}
