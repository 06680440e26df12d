import { business } from '../../domain/business.ts'
import { useIslandHost } from './island.tsx'

/**
 * What a widget shows instead of a blank box when its data does not arrive (issue #3). In a part
 * of the dealer's site that stays HTML, Try again loads the page again: no script is needed.
 */
export function LoadError(props: { what: string; onRetry: () => void; retrying?: boolean }) {
  const host = useIslandHost()
  return (
    <div className="gc-load-error" role="alert" part="error">
      <p>
        We couldn't load {props.what}. Please try again, or call{' '}
        <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>.
      </p>
      {host ? (
        <a className="gc-button gc-button--secondary" href={host.pageUrl} part="button">
          Try again
        </a>
      ) : (
        <button type="button" className="gc-button gc-button--secondary" onClick={props.onRetry} disabled={props.retrying} part="button">
          {props.retrying ? 'Trying again...' : 'Try again'}
        </button>
      )}
    </div>
  )
}
