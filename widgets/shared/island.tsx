import { createContext, type ReactNode, useContext } from 'react'

/**
 * On the dealer's site a page is plain server HTML, and only its interactive parts (islands)
 * run in the browser (docs/decisions/0014-islands.md). A widget marks such a part with
 * `<Island>`: in an embed, where the whole widget runs, it renders its children as they are; on
 * the site the host (host/islands/) renders a marker in their place and the part itself as its
 * own root, which the browser hydrates alone.
 */
export interface IslandHost {
  /** The marker, in place of the part: the host renders the part by its name and props. */
  place(name: string, props: object): ReactNode
  /** The page's own address (path and query): what loads it again. */
  pageUrl: string
}

const IslandHostContext = createContext<IslandHost | null>(null)

export const IslandHostProvider = IslandHostContext.Provider

/** The host rendering a page that stays HTML, or null where the component runs in the browser. */
export function useIslandHost(): IslandHost | null {
  return useContext(IslandHostContext)
}

/** `props` must survive JSON: on the site they travel in the page to the browser. */
export function Island(props: { name: string; props: object; children?: ReactNode }) {
  const host = useIslandHost()
  return host ? host.place(props.name, props.props) : props.children
}
