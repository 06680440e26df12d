import { createContext, useContext } from 'react'
import type { ErrorAnswer } from '../api/http/errors.ts'
import type { TypedFields } from '../domain/inquiry.ts'
import type { WatchLink } from '../api/alerts/watch-store.ts'
import type { PostedWatch } from '../widgets/shared/watch-form.tsx'

/**
 * The one form convention of the site and the console (docs/decisions/0031): a form posts to
 * its page; the page's action hands what was typed to a procedure, whose zod schema judges it
 * (the same schema the API and the widgets use); refused, the page renders again with this
 * state, everything as typed, each problem beside its field and the rest above the form.
 */
export interface FormState<Values = Record<string, string>> {
  values: Values
  /** Each problem beside its field, by the field's posted name. */
  errors: Record<string, string>
  /** A problem with no field of its own (the database down, too many messages, a stale copy). */
  message?: string
}

/**
 * A refusal in the error boundary's one shape (api/http/errors.ts, `{ message, issues }`) as a
 * form shows it. `fieldOf` names the field an issue's path belongs to: the lead forms post
 * their paths as names (`rental.zip`); the console's procedures take a record and more
 * (`changes.0.price`), whose first part is the field.
 */
export function refusalOnForm<Values>(answer: ErrorAnswer, values: Values, fieldOf = (path: string) => path): FormState<Values> {
  const { issues, message } = answer.body
  return {
    values,
    errors: Object.fromEntries(issues.map((issue) => [fieldOf(issue.path), issue.message])),
    message: issues.length > 0 ? undefined : message,
  }
}

/**
 * A lead form (contact, rental or service request) the server handled without JavaScript (host/server/contact-post.ts): the page is
 * rendered again with what was typed and what was wrong, or with a thank-you after a redirect.
 */
export interface PostedForm extends FormState<TypedFields> {
  /**
   * A rental or service request's own fields as typed, by the names they post under
   * (`rental.zip`, `service.needs`: a list where several boxes were checked).
   */
  request?: Record<string, string | string[]>
  /** A price or search alert's form posted without JavaScript and refused (host/server/watch-posts.ts). */
  watch?: PostedWatch
  /** What following an alert's unsubscribe link did, for its page to say (the watch itself is gone). */
  watchLink?: WatchLink
  /** A booking's link page posted (move, cancel) and refused (host/server/appointment-posts.ts). */
  booking?: { errors: Record<string, string>; message?: string }
  /** The vehicle page's booking form posted without JavaScript and refused (host/server/appointment-posts.ts). */
  book?: FormState
}

export const PostedFormContext = createContext<PostedForm | undefined>(undefined)

export function usePostedForm(): PostedForm | undefined {
  return useContext(PostedFormContext)
}
