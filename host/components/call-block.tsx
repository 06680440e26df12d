import { Phone } from 'lucide-react'
import type { ReactNode } from 'react'
import { business } from '../../domain/business.ts'

/**
 * A dark band that ends a page with a phone call and other actions. The call is the main action
 * unless the page leads with its own (`call="last"`: the call then follows the page's buttons).
 */
export function CallBlock(props: {
  title: string
  text: ReactNode
  callLabel?: string
  call?: 'first' | 'last'
  children?: ReactNode
}) {
  const callFirst = props.call !== 'last'
  const callButton = (
    <a className={`gc-button ${callFirst ? 'gc-button--primary' : 'gc-button--outline'}`} href={`tel:${business.tollFree.tel}`}>
      <Phone aria-hidden="true" size={18} /> {props.callLabel ?? `Call ${business.tollFree.display}`}
    </a>
  )
  return (
    <section className="call-block" aria-labelledby="call-block-title">
      <div className="container call-block__inner">
        <h2 id="call-block-title" className="call-block__title">
          {props.title}
        </h2>
        <p>{props.text}</p>
        <div className="gc-actions gc-actions--center">
          {callFirst && callButton}
          {props.children}
          {!callFirst && callButton}
        </div>
      </div>
    </section>
  )
}
