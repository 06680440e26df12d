import { textConsentDisclosure, textConsentField, textConsentLabel } from '../../domain/texting.ts'
import { FieldError } from './form-bits.tsx'

/**
 * "Text me about this request" (PRODUCT.md, "consent to texts"): the unticked box and its
 * disclosure every public lead form shows, in the one wording of domain/texting.ts, which is what
 * is stored with the consent. It posts `textConsent=on` without JavaScript; a form with a script
 * holds it as state (`checked`, `onChange`), a server-rendered one as posted (`defaultChecked`).
 */
export function TextConsent(props: { id: string; checked?: boolean; defaultChecked?: boolean; onChange?: (checked: boolean) => void; error?: string }) {
  const { id, onChange } = props
  return (
    <div className="gc-field gc-consent" part="field">
      <div className="gc-consent__box">
        <input
          id={id}
          type="checkbox"
          name={textConsentField}
          value="on"
          checked={props.checked}
          defaultChecked={props.defaultChecked}
          onChange={onChange && ((event) => onChange(event.currentTarget.checked))}
          aria-describedby={`${id}-disclosure${props.error ? ` ${id}-error` : ''}`}
        />
        <label htmlFor={id}>{textConsentLabel}</label>
      </div>
      <p id={`${id}-disclosure`} className="gc-consent__disclosure" part="consent">
        {textConsentDisclosure}
      </p>
      <FieldError id={`${id}-error`} message={props.error} />
    </div>
  )
}
