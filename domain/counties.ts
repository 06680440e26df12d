/**
 * The 21 New Jersey counties the dealer serves (docs/PRODUCT.md, "Pages and addresses"): display names, the two towns
 * each county's "Serving <County> Since 2009" story names, and the towns its rental page lists.
 * The rental towns for Salem, Somerset, Sussex, Union and Warren are the dealer's own list, kept
 * exactly as given; the other sixteen are real municipalities of that county (docs/PRODUCT.md,
 * "County rental pages").
 */
export const countyValues = [
  'atlantic',
  'bergen',
  'burlington',
  'camden',
  'cape-may',
  'cumberland',
  'essex',
  'gloucester',
  'hudson',
  'hunterdon',
  'mercer',
  'middlesex',
  'monmouth',
  'morris',
  'ocean',
  'passaic',
  'salem',
  'somerset',
  'sussex',
  'union',
  'warren',
] as const

export type CountyValue = (typeof countyValues)[number]

export interface County {
  value: CountyValue
  /** Display name without the word County: "Cape May" (always with a space), "Atlantic". */
  name: string
  /** The two towns the county's story names, in the dealer's order. */
  storyTowns: readonly [string, string]
  /** Towns listed on the county rental page ("Serving <County> Communities"). */
  rentalTowns: readonly string[]
}

export const counties: readonly County[] = [
  {
    value: 'atlantic',
    name: 'Atlantic',
    storyTowns: ['Atlantic City', 'Hammonton'],
    rentalTowns: [
      'Atlantic City',
      'Hammonton',
      'Ventnor City',
      'Margate City',
      'Brigantine',
      'Galloway Township',
      'Egg Harbor Township',
    ],
  },
  {
    value: 'bergen',
    name: 'Bergen',
    storyTowns: ['Hackensack', 'Paramus'],
    rentalTowns: ['Hackensack', 'Paramus', 'Teaneck', 'Fort Lee', 'Ridgewood', 'Fair Lawn', 'Mahwah'],
  },
  {
    value: 'burlington',
    name: 'Burlington',
    storyTowns: ['Mount Laurel', 'Pemberton'],
    rentalTowns: [
      'Mount Laurel',
      'Pemberton',
      'Moorestown',
      'Medford',
      'Evesham Township',
      'Willingboro',
      'Burlington City',
    ],
  },
  {
    value: 'camden',
    name: 'Camden',
    storyTowns: ['Cherry Hill', 'Voorhees'],
    rentalTowns: [
      'Cherry Hill',
      'Voorhees',
      'Haddonfield',
      'Collingswood',
      'Pennsauken',
      'Winslow Township',
      'Camden',
    ],
  },
  {
    value: 'cape-may',
    name: 'Cape May',
    storyTowns: ['Cape May Point', 'Wildwood'],
    rentalTowns: [
      'Cape May',
      'Cape May Point',
      'Wildwood',
      'North Wildwood',
      'Ocean City',
      'Sea Isle City',
      'Avalon',
    ],
  },
  {
    value: 'cumberland',
    name: 'Cumberland',
    storyTowns: ['Bridgeton', 'Vineland'],
    rentalTowns: [
      'Bridgeton',
      'Vineland',
      'Millville',
      'Upper Deerfield Township',
      'Fairfield Township',
      'Commercial Township',
    ],
  },
  {
    value: 'essex',
    name: 'Essex',
    storyTowns: ['Newark', 'Montclair'],
    rentalTowns: ['Newark', 'Montclair', 'West Orange', 'Livingston', 'Bloomfield', 'Millburn', 'Caldwell'],
  },
  {
    value: 'gloucester',
    name: 'Gloucester',
    storyTowns: ['Glassboro', 'Woodbury'],
    rentalTowns: [
      'Glassboro',
      'Woodbury',
      'Washington Township',
      'Deptford Township',
      'West Deptford',
      'Harrison Township',
      'Swedesboro',
    ],
  },
  {
    value: 'hudson',
    name: 'Hudson',
    storyTowns: ['Jersey City', 'Hoboken'],
    rentalTowns: [
      'Jersey City',
      'Hoboken',
      'Bayonne',
      'Union City',
      'West New York',
      'North Bergen',
      'Secaucus',
    ],
  },
  {
    value: 'hunterdon',
    name: 'Hunterdon',
    storyTowns: ['Flemington', 'Lambertville'],
    rentalTowns: [
      'Flemington',
      'Lambertville',
      'Clinton',
      'Frenchtown',
      'High Bridge',
      'Readington Township',
      'Raritan Township',
    ],
  },
  {
    value: 'mercer',
    name: 'Mercer',
    storyTowns: ['Trenton', 'Princeton'],
    rentalTowns: [
      'Trenton',
      'Princeton',
      'Hamilton Township',
      'Ewing Township',
      'Lawrence Township',
      'West Windsor',
      'Hopewell Township',
    ],
  },
  {
    value: 'middlesex',
    name: 'Middlesex',
    storyTowns: ['New Brunswick', 'Edison'],
    rentalTowns: [
      'New Brunswick',
      'Edison',
      'Woodbridge',
      'Piscataway',
      'East Brunswick',
      'Old Bridge',
      'Monroe Township',
    ],
  },
  {
    value: 'monmouth',
    name: 'Monmouth',
    storyTowns: ['Freehold', 'Asbury Park'],
    rentalTowns: ['Freehold', 'Asbury Park', 'Long Branch', 'Red Bank', 'Belmar', 'Wall Township', 'Manalapan'],
  },
  {
    value: 'morris',
    name: 'Morris',
    storyTowns: ['Morristown', 'Parsippany'],
    rentalTowns: ['Morristown', 'Parsippany', 'Madison', 'Randolph', 'Denville', 'Roxbury Township', 'Mount Olive Township'],
  },
  {
    value: 'ocean',
    name: 'Ocean',
    storyTowns: ['Toms River', 'Lakewood'],
    rentalTowns: [
      'Toms River',
      'Lakewood',
      'Brick',
      'Berkeley Township',
      'Manchester Township',
      'Lacey Township',
      'Long Beach Township',
    ],
  },
  {
    value: 'passaic',
    name: 'Passaic',
    storyTowns: ['Paterson', 'Clifton'],
    rentalTowns: ['Paterson', 'Clifton', 'Passaic', 'Wayne', 'Little Falls', 'Totowa', 'West Milford'],
  },
  {
    value: 'salem',
    name: 'Salem',
    storyTowns: ['Salem', 'Pennsville'],
    rentalTowns: ['Pennsville', 'Carneys Point', 'Salem', 'Elmer', 'Woodstown', 'Pittsgrove Township'],
  },
  {
    value: 'somerset',
    name: 'Somerset',
    storyTowns: ['Somerville', 'Bridgewater'],
    rentalTowns: [
      'Franklin Township',
      'Bridgewater',
      'Piscataway',
      'New Brunswick',
      'North Brunswick',
      'South Brunswick',
    ],
  },
  {
    value: 'sussex',
    name: 'Sussex',
    storyTowns: ['Newton', 'Vernon'],
    rentalTowns: [
      'Vernon Township',
      'Sparta',
      'Frankford Township',
      'Hardyston Township',
      'Hopatcong',
      'Newton',
    ],
  },
  {
    value: 'union',
    name: 'Union',
    storyTowns: ['Elizabeth', 'Westfield'],
    rentalTowns: ['Elizabeth', 'Woodbridge', 'Union', 'Plainfield', 'Linden', 'Rahway', 'Westfield'],
  },
  {
    value: 'warren',
    name: 'Warren',
    storyTowns: ['Phillipsburg', 'Hackettstown'],
    rentalTowns: [
      'Washington Township',
      'Phillipsburg',
      'Lopatcong Township',
      'Pohatcong Township',
      'White Township',
      'Belvidere',
    ],
  },
]

export function countyByValue(value: string): County | undefined {
  return counties.find((county) => county.value === value)
}

/** How a county is named as a place: "Cape May County, New Jersey". */
export function countyPlaceName(county: County): string {
  return `${county.name} County, New Jersey`
}
