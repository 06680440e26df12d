import { type RefObject, useLayoutEffect } from 'react'

/** Each field by its name: the value this render gave it, and how to keep another. */
export type KeptFields = Record<string, readonly [rendered: string, keep: (value: string) => void]>

/**
 * On the dealer's site a form shows, and takes typing, before its script has run; hydration
 * leaves the fields as the visitor left them but the component's state as the server rendered
 * it. Once, after the first render, every field whose value differs from what was rendered is
 * kept, so what was typed is what the form holds and sends. Where the form is rendered in the
 * browser (an embed, a test) nothing differs and nothing happens. A layout effect, so what is kept
 * is rendered before the island says it has hydrated (host/islands/client.tsx): a form sent
 * before then is sent again through the island (host/islands/reach.ts) with what was typed.
 */
export function useKeepTypedEarly(form: RefObject<HTMLFormElement | null>, fields: KeptFields): void {
  useLayoutEffect(() => {
    for (const [name, [rendered, keep]] of Object.entries(fields)) {
      const field = form.current?.elements.namedItem(name)
      // A box is kept as its form posts it: `on` when ticked, else nothing.
      if (field instanceof HTMLInputElement && field.type === 'checkbox') {
        const value = field.checked ? field.value : ''
        if (value !== rendered) keep(value)
        continue
      }
      const isField = field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement
      if (isField && field.value !== rendered) keep(field.value)
    }
    // Once, after the first render: later changes come through the fields' own handlers.
  }, [])
}
