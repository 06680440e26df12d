import { createContext, useContext } from 'react'
import type { TypedFields } from '../domain/inquiry.ts'

/**
 * A contact form the server handled without JavaScript (host/server/contact-post.ts): the page is
 * rendered again with what was typed and what was wrong, or with a thank-you after a redirect.
 */
export interface PostedForm {
  values: TypedFields
  errors: Record<string, string>
  /** A problem with no field of its own (the database down, too many messages). */
  message?: string
}

export const PostedFormContext = createContext<PostedForm | undefined>(undefined)

export function usePostedForm(): PostedForm | undefined {
  return useContext(PostedFormContext)
}
