import type { ReactNode } from 'react'
import { Island } from '../../widgets/shared/island.tsx'
import type { IslandName, IslandProps } from './islands.ts'

/** An island in a page, by name, with its props checked against the table in islands.ts. */
export function island<N extends IslandName>(name: N, props: IslandProps[N]): ReactNode {
  return <Island name={name} props={props} />
}
