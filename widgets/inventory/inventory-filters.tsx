import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { showroomByKey } from '../../domain/business.ts'
import { batteryLabels } from '../../domain/cart-facts.ts'
import {
  type CartFacets,
  type CartSearch,
  type CartSearchField,
  cartSearchParams,
  cartSorts,
  priceCeilings,
  seatChoices,
  sortLabels,
  toggleMake,
  withSearch,
} from '../../domain/cart-query.ts'
import { categoryLabel, categoryOptions, formatPrice } from '../../domain/golf-cart.ts'

export interface InventoryFiltersProps {
  id: string
  search: CartSearch
  /** How many carts each choice would leave; absent while the first answer loads. */
  facets?: CartFacets
  /** Fields a partner fixed: not offered as choices. */
  locked: ReadonlySet<CartSearchField>
  /** On the dealer's site every choice is a link (its own address, no JavaScript needed). */
  href?(search: CartSearch): string
  /** Where the form's plain GET goes without JavaScript (the page's own path). */
  action?: string
  /**
   * In an embed (no server page, so nothing to work without JavaScript) the choices are built
   * when the panel is first shown: when the shopper opens it, or at once where it is always
   * shown beside a wide grid. Behind a phone's closed Filters button they are not built at all.
   */
  whenShown?: boolean
  onChange(search: CartSearch): void
}

/**
 * The filter panel (PRODUCT.md, "search"): a choice per value with the number of carts it would
 * leave, the words box, the price range and the sort. In a `<details>`, so on a phone it opens
 * as a panel without JavaScript; on a wide container it is always shown (inventory-grid.css).
 */
export function InventoryFilters(props: InventoryFiltersProps) {
  const active = countActive(props.search, props.locked)
  const [shown, setShown, panel, toggle] = useShown(!props.whenShown)

  return (
    <details
      ref={panel}
      className="gc-filters"
      part="filters"
      onToggle={(event) => {
        if (event.currentTarget.open) setShown(true)
      }}
    >
      <summary ref={toggle} className="gc-button gc-button--outline gc-filters__toggle">
        Filters{active > 0 ? ` (${active})` : ''}
      </summary>
      <div className="gc-filters__body">
        {shown && <Choices {...props} />}
      </div>
    </details>
  )
}

/** The words box, the sort and a group of choices for each field a partner left open. */
function Choices(props: InventoryFiltersProps) {
  const { search, facets, locked } = props
  const open = (field: CartSearchField) => !locked.has(field)
  const oneOf = <F extends OneOfField>(group: OneOfGroup<F>) => open(group.field) && <OneOf {...props} {...group} />

  const categories = [
    ...categoryOptions.filter((o) => o.value !== 'all').map((o) => o.value as string),
    ...(facets?.category.map((c) => c.value) ?? []),
    ...(search.category ? [search.category] : []),
  ].filter((value, i, all) => all.indexOf(value) === i)

  // A chosen make stays offered (to be taken back) even when the rest of the search leaves none.
  const makes = [
    ...(facets?.make ?? []),
    ...(search.make ?? []).filter((key) => !facets?.make.some((m) => m.value === key)).map((value) => ({ value, label: value, count: 0 })),
  ]

  return (
    <>
      <SearchForm key={cartSearchParams(search).toString()} {...props} />
      {oneOf({
        field: 'category',
        title: 'Condition',
        any: 'All Categories',
        options: categories.map((value) => ({
          value,
          label: categoryOptions.find((o) => o.value === value)?.label ?? `${categoryLabel(value)} Golf Carts`,
          count: facets ? (facets.category.find((c) => c.value === value)?.count ?? 0) : undefined,
        })),
      })}
      {oneOf({
        field: 'location',
        title: 'Location',
        any: 'Any showroom',
        options: (facets?.location ?? []).map((place) => ({ value: place.value, label: showroomByKey(place.value)?.name ?? place.value, count: place.count })),
      })}
      {open('make') && makes.length > 0 && (
        <Group title="Make">
          {makes.map((make) => (
            <Choice
              key={make.value}
              {...props}
              to={toggleMake(search, make.value)}
              chosen={search.make?.includes(make.value) ?? false}
              count={make.count}
              toggle
            >
              {make.label}
            </Choice>
          ))}
        </Group>
      )}
      {oneOf({ field: 'seats', title: 'Seats', any: 'Any', options: seatChoices.map((seats) => ({ value: seats, label: `${seats}+ seats`, count: facets?.seats.find((s) => s.value === seats)?.count })) })}
      {oneOf({ field: 'battery', title: 'Battery', any: 'Any', options: (facets?.battery ?? []).map((b) => ({ value: b.value, label: batteryLabels[b.value], count: b.count })) })}
      {(open('streetLegal') || open('lifted')) && (
        <Group title="Features">
          {open('streetLegal') && (
            <Choice
              {...props}
              to={withSearch(search, { streetLegal: search.streetLegal ? undefined : true })}
              chosen={search.streetLegal ?? false}
              count={facets?.streetLegal}
              toggle
            >
              Street legal
            </Choice>
          )}
          {open('lifted') && (
            <Choice {...props} to={withSearch(search, { lifted: search.lifted ? undefined : true })} chosen={search.lifted ?? false} count={facets?.lifted} toggle>
              Lifted
            </Choice>
          )}
        </Group>
      )}
      {oneOf({
        field: 'maxPrice',
        title: 'Price',
        any: 'Any price',
        options: priceCeilings.map((ceiling) => ({ value: ceiling, label: `Under ${formatPrice(ceiling)}`, count: facets?.maxPrice.find((p) => p.value === ceiling)?.count })),
        // A floor above the new ceiling would leave nothing: it goes.
        to: (ceiling) => withSearch(search, { maxPrice: ceiling, minPrice: ceiling !== undefined && search.minPrice !== undefined && search.minPrice > ceiling ? undefined : search.minPrice }),
      })}
    </>
  )
}

/**
 * Whether the panel's choices are built yet, and the panel and its toggle to watch. Beside a wide
 * grid the toggle is not displayed and the panel is always open (inventory-grid.css, the
 * container query): the panel's size is observed (a callback after layout, so asking the
 * toggle's style then costs no extra work), which also catches a container that widens later.
 */
function useShown(initially: boolean) {
  const [shown, setShown] = useState(initially)
  const panel = useRef<HTMLDetailsElement>(null)
  const toggle = useRef<HTMLElement>(null)
  useEffect(() => {
    if (shown || !panel.current) return
    if (typeof ResizeObserver === 'undefined') return setShown(true)
    const observer = new ResizeObserver(() => {
      if (toggle.current && getComputedStyle(toggle.current).display === 'none') setShown(true)
    })
    observer.observe(panel.current)
    return () => observer.disconnect()
  }, [shown])
  return [shown, setShown, panel, toggle] as const
}

/** How many filters the visitor chose (a partner's fixed ones are not theirs to count). */
export function countActive(search: CartSearch, locked: ReadonlySet<CartSearchField>): number {
  return (Object.keys(search) as CartSearchField[]).filter((f) => f !== 'sort' && !locked.has(f)).length
}

/** The fields of which a search holds one value at most, each offered as a group of choices. */
type OneOfField = 'category' | 'location' | 'seats' | 'battery' | 'maxPrice'

interface OneOfGroup<F extends OneOfField> {
  field: F
  title: string
  /** The first choice, which takes the field out of the search. */
  any: string
  options: readonly { value: NonNullable<CartSearch[F]>; label: string; count: number | undefined }[]
  to?: (value: CartSearch[F]) => CartSearch
}

/**
 * A group of which one choice at most is chosen (condition, showroom, seats, battery, price):
 * "any" first, which takes the field out of the search, then each value with its count. `to`:
 * the search a value leads to, when choosing it changes more than its own field.
 */
function OneOf<F extends OneOfField>(props: InventoryFiltersProps & OneOfGroup<F>) {
  const { search, field } = props
  const to = props.to ?? ((value: CartSearch[F]) => withSearch(search, { [field]: value }))
  return (
    <Group title={props.title}>
      <Choice {...props} to={to(undefined)} chosen={search[field] === undefined} count={undefined}>
        {props.any}
      </Choice>
      {props.options.map((option) => (
        <Choice key={String(option.value)} {...props} to={to(option.value)} chosen={search[field] === option.value} count={option.count}>
          {option.label}
        </Choice>
      ))}
    </Group>
  )
}

function Group(props: { title: string; children: ReactNode }) {
  return (
    <fieldset className="gc-filters__group" part="filter-group">
      <legend>{props.title}</legend>
      <ul className="gc-filters__choices">{props.children}</ul>
    </fieldset>
  )
}

/**
 * One choice: a link on the site, a button in an embed. A choice that would leave no cart is
 * shown but not offered, unless it is the current one (so it can be taken back).
 */
function Choice(props: InventoryFiltersProps & { to: CartSearch; chosen: boolean; count: number | undefined; toggle?: boolean; children: ReactNode }) {
  const count = props.count === undefined ? null : <span className="gc-filters__count">{props.count}</span>
  const label = (
    <>
      {props.toggle && <span className="gc-filters__box" aria-hidden="true" />}
      <span className="gc-filters__label">{props.children}</span>
      {count}
      {props.chosen && <span className="gc-sr-only">(chosen)</span>}
    </>
  )
  const className = `gc-filters__choice${props.chosen ? ' gc-filters__choice--chosen' : ''}`
  let control: ReactNode
  if (props.count === 0 && !props.chosen) {
    control = (
      <span className={`${className} gc-filters__choice--empty`} aria-disabled="true">
        {label}
      </span>
    )
  } else if (props.href) {
    control = (
      <a className={className} href={props.href(props.to)} aria-current={props.chosen && !props.toggle ? 'true' : undefined} rel="nofollow">
        {label}
      </a>
    )
  } else {
    control = (
      <button type="button" className={className} aria-pressed={props.chosen} onClick={() => props.onChange(props.to)}>
        {label}
      </button>
    )
  }
  return <li>{control}</li>
}

/** The words box, the price range and the sort: a GET form that is the address without JavaScript. */
function SearchForm(props: InventoryFiltersProps) {
  const { search, locked, id } = props
  const linkFields = (['category', 'make', 'seats', 'battery', 'streetLegal', 'lifted', 'location'] as const).filter((f) => search[f] !== undefined && !locked.has(f))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => {
      const text = form.get(name)
      return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined
    }
    const number = (name: string) => {
      const text = value(name)?.replace(/[$,\s]/g, '')
      return text && /^\d+$/.test(text) ? Number(text) : undefined
    }
    const next = withSearch(search, {
      ...(locked.has('q') ? {} : { q: value('q') }),
      ...(locked.has('minPrice') ? {} : { minPrice: number('minPrice') }),
      ...(locked.has('maxPrice') ? {} : { maxPrice: number('maxPrice') }),
      ...(locked.has('sort') ? {} : { sort: value('sort') as CartSearch['sort'] }),
    })
    if (next.minPrice !== undefined && next.maxPrice !== undefined && next.minPrice > next.maxPrice) delete next.maxPrice
    props.onChange(next)
  }
  return (
    <form className="gc-filters__form" role="search" action={props.action} method="get" onSubmit={submit} part="search">
      {linkFields.map((field) => (
        <input key={field} type="hidden" name={field} value={String(Array.isArray(search[field]) ? search.make!.join(',') : search[field])} />
      ))}
      {!locked.has('q') && (
        <div className="gc-field" part="field">
          <label htmlFor={`${id}-q`}>Search</label>
          <input id={`${id}-q`} className="gc-input" part="input" type="search" name="q" defaultValue={search.q ?? ''} placeholder="Model, word or stock number" maxLength={100} />
        </div>
      )}
      {!(locked.has('minPrice') && locked.has('maxPrice')) && (
        <div className="gc-filters__prices">
          {!locked.has('minPrice') && (
            <div className="gc-field" part="field">
              <label htmlFor={`${id}-min`}>Min price ($)</label>
              <input id={`${id}-min`} className="gc-input" part="input" inputMode="numeric" name="minPrice" defaultValue={search.minPrice ?? ''} />
            </div>
          )}
          {!locked.has('maxPrice') && (
            <div className="gc-field" part="field">
              <label htmlFor={`${id}-max`}>Max price ($)</label>
              <input id={`${id}-max`} className="gc-input" part="input" inputMode="numeric" name="maxPrice" defaultValue={search.maxPrice ?? ''} />
            </div>
          )}
        </div>
      )}
      {!locked.has('sort') && (
        <div className="gc-field" part="field">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select
            id={`${id}-sort`}
            className="gc-input"
            part="input"
            name="sort"
            defaultValue={search.sort ?? ''}
            onChange={(e) => e.currentTarget.form?.requestSubmit()}
          >
            <option value="">{sortLabels.default}</option>
            {cartSorts.map((sort) => (
              <option key={sort} value={sort}>
                {sortLabels[sort]}
              </option>
            ))}
          </select>
        </div>
      )}
      <button type="submit" className="gc-button gc-button--secondary">
        Apply
      </button>
    </form>
  )
}
