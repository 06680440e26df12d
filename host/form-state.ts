import { createContext, useContext } from 'react'
import type { TypedFields } from '../domain/inquiry.ts'

/**
 * A lead form (contact, rental or service request) the server handled without JavaScript (host/server/contact-post.ts): the page is
 * rendered again with what was typed and what was wrong, or with a thank-you after a redirect.
 */
export interface PostedForm {
  values: TypedFields
  errors: Record<string, string>
  /** A problem with no field of its own (the database down, too many messages). */
  message?: string
  /**
   * A rental or service request's own fields as typed, by the names they post under
   * (`rental.zip`, `service.needs`: a list where several boxes were checked).
   */
  request?: Record<string, string | string[]>
}

export const PostedFormContext = createContext<PostedForm | undefined>(undefined)

export function usePostedForm(): PostedForm | undefined {
  return useContext(PostedFormContext)
}
