import { type ComponentType, useState } from 'react'
import { business } from '../../domain/business.ts'
import { WatchBox, type WatchFormProps } from './watch-box.tsx'

/**
 * The same box in an embed, whose form's code (its checks, the mutation, the origin check;
 * watch-form.tsx) is fetched when the shopper first opens it: most never do, and
 * a partner's page should not pay for it before the carts appear (issue #54, decision 0044).
 */
export function WatchFormOnOpen(props: WatchFormProps) {
  const [panel, setPanel] = useState<{ Panel: ComponentType<WatchFormProps> } | 'loading' | 'failed' | null>(null)
  const load = () => {
    if (panel !== null && panel !== 'failed') return
    setPanel('loading')
    import('./watch-form.tsx').then(
      (module) => setPanel({ Panel: module.WatchPanel }),
      () => setPanel('failed'),
    )
  }
  return (
    <WatchBox label={props.label} onOpen={load}>
      {typeof panel === 'object' && panel !== null ? (
        <panel.Panel {...props} />
      ) : panel === 'failed' ? (
        <p className="gc-form__failure" part="error">
          This form could not be loaded. Close and open it to try again, or call{' '}
          <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>.
        </p>
      ) : (
        <p className="gc-watch__note" role="status">
          Loading...
        </p>
      )}
    </WatchBox>
  )
}
