import { useQuery } from '@tanstack/react-query'
import { type RefObject, useEffect, useRef, useState } from 'react'
import { useTRPC } from './api.tsx'
import { focusField } from './form-bits.tsx'

/**
 * What every lead form (the contact form, the rental request) asks of the dealer before a visitor
 * types on a page that may be a partner's (`checkOrigin`): the origin the dealer has not allowed
 * (null when the browser sent none), or undefined while it is allowed or not known yet. A failed
 * check is no reason to hide the form: the submission will say what went wrong. `onRefused` is
 * called once per answer, however often the page re-renders the element.
 */
export function useRefusedOrigin(check: boolean | undefined, onRefused?: (origin: string | null) => void): string | null | undefined {
  const trpc = useTRPC()
  const status = useQuery({ ...trpc.inquiry.originStatus.queryOptions(), enabled: Boolean(check) })
  const refused = status.data?.accepted === false ? (status.data.origin ?? null) : undefined
  const callback = useRef(onRefused)
  callback.current = onRefused
  useEffect(() => {
    if (refused !== undefined) callback.current?.(refused)
  }, [refused])
  return refused
}

/**
 * A lead form's problems, one per field (the first said of each), shown beside their fields with
 * the focus on the first in the form's order. `showErrors` answers whether any field had one, so
 * anything else goes to the toast.
 */
export function useFieldErrors(form: RefObject<HTMLFormElement | null>, fieldNames: readonly string[], initial: Record<string, string> = {}) {
  const [errors, setErrors] = useState<Record<string, string>>(initial)
  const showErrors = (issues: { path: string; message: string }[]) => {
    const byField: Record<string, string> = {}
    for (const issue of issues) byField[issue.path] ??= issue.message
    setErrors(byField)
    const first = fieldNames.find((f) => byField[f])
    if (first) focusField(form.current?.querySelector<HTMLElement>(`[name="${first}"]`))
    return Object.keys(byField).length > 0
  }
  return { errors, setErrors, showErrors }
}
