import { business } from '../../domain/business.ts'

/** What a widget shows instead of a blank box when its data does not arrive (issue #3). */
export function LoadError(props: { what: string; onRetry: () => void; retrying?: boolean }) {
  return (
    <div className="gc-load-error" role="alert" part="error">
      <p>
        We couldn't load {props.what}. Please try again, or call{' '}
        <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>.
      </p>
      <button type="button" className="gc-button gc-button--secondary" onClick={props.onRetry} disabled={props.retrying} part="button">
        {props.retrying ? 'Trying again...' : 'Try again'}
      </button>
    </div>
  )
}
