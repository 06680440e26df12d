import { Phone } from 'lucide-react'
import type { ReactNode } from 'react'
import { business } from '../../domain/business.ts'

/** A dark band that ends a page with a phone call and other actions. */
export function CallBlock(props: { title: string; text: ReactNode; callLabel?: string; children?: ReactNode }) {
  return (
    <section className="call-block" aria-labelledby="call-block-title">
      <div className="container call-block__inner">
        <h2 id="call-block-title" className="call-block__title">
          {props.title}
        </h2>
        <p>{props.text}</p>
        <div className="gc-actions gc-actions--center">
          <a className="gc-button gc-button--primary" href={`tel:${business.tollFree.tel}`}>
            <Phone aria-hidden="true" size={18} /> {props.callLabel ?? `Call ${business.tollFree.display}`}
          </a>
          {props.children}
        </div>
      </div>
    </section>
  )
}
