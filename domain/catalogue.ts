import { slugify } from './slug.ts'

/**
 * The dealer's cart catalogue, in one place: the models the site knows, with the manufacturer
 * page behind each, and the starting inventory, with everything a seeded cart needs (its text,
 * price, whether it is featured, the body colour of its drawn image). The seed
 * (api/carts/seed.ts), the artwork generator (scripts/artwork/generate.ts) and the vehicle page's
 * "View Dealership Source" button (domain/dealership-sources.ts) read it; none keeps its own list.
 *
 * Adding a cart to the starting inventory is one entry below, then
 * `node --import tsx scripts/artwork/generate.ts` to draw its image.
 */

/**
 * The manufacturer page of each model (37 model names; docs/PRODUCT.md, "Dealership sources"). Data the dealer edits
 * when a manufacturer moves a page or a new model arrives; a cart whose title names no model
 * here shows no "View Dealership Source" button.
 */
export const manufacturerPages: Readonly<Record<string, string>> = {
  'Evolution Classic 2 Plus': 'https://evolutionevs.com/classic-2-plus',
  'Evolution Classic 2 Pro': 'https://evolutionevs.com/classic-2-pro',
  'Evolution Classic 4 Plus': 'https://evolutionevs.com/classic-4-plus',
  'Evolution Classic 4 Pro': 'https://evolutionevs.com/classic-4-pro',
  'Evolution Carrier 6 Plus': 'https://evolutionevs.com/carrier-6-plus',
  'Evolution Carrier 6 Pro': 'https://evolutionevs.com/carrier-6-pro',
  'Evolution Carrier 8 Plus': 'https://evolutionevs.com/carrier-8-plus',
  'Evolution Carrier 8 Pro': 'https://evolutionevs.com/carrier-8-pro',
  'Evolution D3 2+2': 'https://evolutionevs.com/d3-2-2',
  'Evolution D3 4': 'https://evolutionevs.com/d3-4',
  'Evolution D5 Maverick 2+2': 'https://evolutionevs.com/d5-maverick-2-2',
  'Evolution D5 Maverick 4': 'https://evolutionevs.com/d5-maverick-4',
  'Evolution D5 Maverick 4+2': 'https://evolutionevs.com/d5-maverick-4-2',
  'Evolution D5 Maverick 6': 'https://evolutionevs.com/d5-maverick-6',
  'Evolution D5 Ranger 2+2': 'https://evolutionevs.com/d5-ranger-2-2',
  'Evolution D5 Ranger 2+2 Plus': 'https://evolutionevs.com/d5-ranger-2-2-plus',
  'Evolution D5 Ranger 4': 'https://evolutionevs.com/d5-ranger-4',
  'Evolution D5 Ranger 4 Plus': 'https://evolutionevs.com/d5-ranger-4-plus',
  'Evolution D5 Ranger 6': 'https://evolutionevs.com/d5-ranger-6',
  'Evolution D5 Ranger 6 Plus': 'https://evolutionevs.com/d5-ranger-6-plus',
  'Evolution D6 Max GT4': 'https://evolutionevs.com/d6-max-gt4',
  'Evolution D6 Max GT6': 'https://evolutionevs.com/d6-max-gt6',
  'Evolution D6 Max XT4': 'https://evolutionevs.com/d6-max-xt4',
  'Evolution D6 Max XT6': 'https://evolutionevs.com/d6-max-xt6',
  'Evolution Forester 4 Plus': 'https://evolutionevs.com/forester-4-plus',
  'Evolution Forester 4 Pro': 'https://evolutionevs.com/forester-4-pro',
  'Evolution Forester 6 Plus': 'https://evolutionevs.com/forester-6-plus',
  'Evolution Forester 6 Pro': 'https://evolutionevs.com/forester-6-pro',
  'Evolution Turfman 200': 'https://evolutionevs.com/turfman-200',
  'Evolution Turfman 800': 'https://evolutionevs.com/turfman-800',
  'Evolution Turfman 1000': 'https://evolutionevs.com/turfman-1000',
  'Denago EV City': 'https://www.denagoev.com/ev-city',
  'Denago EV Nomad': 'https://www.denagoev.com/ev-nomad',
  'Denago EV Nomad XL': 'https://www.denagoev.com/ev-nomad-xl',
  'Denago EV Rover XL': 'https://www.denagoev.com/ev-rover-xl',
  'Denago EV Rover XL6': 'https://www.denagoev.com/ev-rover-xl6',
  'Denago EV Rover XXL': 'https://www.denagoev.com/ev-rover-xxl',
}

/** The body colours the artwork can draw (scripts/artwork/color.ts holds their shades). */
export type BodyColour =
  | 'white'
  | 'black'
  | 'silver'
  | 'red'
  | 'blue'
  | 'green'
  | 'champagne'
  | 'grey'
  | 'navy'
  | 'sky'
  | 'orange'
  | 'burgundy'

/**
 * One cart of the starting inventory: new Evolution and Denago carts (docs/PRODUCT.md, "The catalogue"). The
 * vehicle page shows the specifications derived from each title (domain/specifications.ts) next
 * to the description, so the descriptions stay consistent with those figures: seating, top
 * speed, motor and, where the site lists lithium, the battery and range.
 */
export interface CatalogueCart {
  /** Model year and a model name from `manufacturerPages`. */
  title: string
  /** 2-3 sentences, specific to the model: seating, what it is good for, notable equipment. Max 400 characters. */
  description: string
  /** Whole US dollars. */
  price: number
  featured: boolean
  /** The body colour its drawn image is painted in; neighbours in the list differ. */
  colour: BodyColour
}

/** Where a catalogue cart's drawn image is served (docs/decisions/0002-drawn-artwork.md). */
export function drawnImageUrl(title: string): string {
  return `/images/carts/${slugify(title)}.svg`
}

export const startingInventory: readonly CatalogueCart[] = [
  {
    title: '2025 Denago EV City',
    colour: 'sky',
    description:
      "Denago's most affordable street cart seats six and reaches 25 mph on an AC motor. The lithium battery gives 40-60 miles per charge with no watering. A practical choice for shore towns and neighborhoods where you want a cart for errands, the beach and evening rides.",
    price: 8995,
    featured: false,
  },
  {
    title: '2025 Denago EV Nomad',
    colour: 'champagne',
    description:
      'A six-passenger Denago built for everyday driving around town. The AC motor reaches 25 mph and the lithium battery covers 40-60 miles on a charge. It comes with the lights, mirrors, seat belts and windshield a street-legal cart needs, so it suits families who use their cart every day.',
    price: 10995,
    featured: false,
  },
  {
    title: '2025 Denago EV Nomad XL',
    colour: 'green',
    description:
      'The Nomad XL seats six in comfort and is a popular pick for families and shore rental homes. It reaches 25 mph on an AC motor, and the lithium battery runs 40-60 miles per charge. Street-legal equipment comes standard, ready for registration where local rules allow.',
    price: 12495,
    featured: true,
  },
  {
    title: '2025 Denago EV Rover XL',
    colour: 'black',
    description:
      'A lifted Denago with all-terrain tires and a rear flip seat, so it carries two to four people or folds into a flat cargo deck. The AC motor reaches 25 mph and the lithium battery runs 40-60 miles. Good for farms, campgrounds and owners who split time between gravel lanes and paved roads.',
    price: 11995,
    featured: false,
  },
  {
    title: '2025 Denago EV Rover XL6',
    colour: 'red',
    description:
      'A lifted six-seater with all-terrain tires and extra ground clearance for sand, grass and gravel. The AC motor reaches 25 mph and the lithium battery covers 40-60 miles per charge. A strong pick for lake communities, beach houses and large properties where the whole family rides together.',
    price: 13995,
    featured: true,
  },
  {
    title: '2025 Denago EV Rover XXL',
    colour: 'grey',
    description:
      "Denago's largest lifted cart seats eight, so a big family or a work crew travels in one trip. It reaches 25 mph on an AC motor and runs 40-60 miles on its lithium battery. Popular with campgrounds, event venues and homeowners who host a crowd.",
    price: 15995,
    featured: false,
  },
  {
    title: '2025 Evolution D6 Max GT4',
    colour: 'white',
    description:
      "The street trim of Evolution's flagship D6 Max seats four. A lithium battery and AC motor give a smooth 19 mph and 30-45 miles per charge with no battery watering. Comfortable seats and street-legal lighting make it a favorite in active-adult and HOA communities.",
    price: 14995,
    featured: true,
  },
  {
    title: '2025 Evolution D6 Max GT6',
    colour: 'blue',
    description:
      'The six-passenger street version of the D6 Max, with three rows of seating for family outings and neighborhood rides. The lithium battery and AC motor deliver 19 mph and 30-45 miles of range. Comes with the lighting, mirrors and seat belts expected on a street-legal cart.',
    price: 16495,
    featured: false,
  },
  {
    title: '2025 Evolution D6 Max XT4',
    colour: 'orange',
    description:
      'The lifted off-road trim of the D6 Max seats four and rides on all-terrain tires. It runs 19 mph on an AC motor, and the lithium battery covers 30-45 miles per charge. Built for owners who want one cart for paved streets, sandy lanes and trails.',
    price: 15495,
    featured: false,
  },
  {
    title: '2025 Evolution D6 Max XT6',
    colour: 'silver',
    description:
      'A lifted six-seater with off-road styling and all-terrain tires for sand, gravel and grass. The AC motor and lithium battery deliver 19 mph and 30-45 miles per charge. Ideal for larger families at the shore or on a farm who want room for everyone and the stance to go off the pavement.',
    price: 16995,
    featured: true,
  },
  {
    title: '2025 Evolution D5 Maverick 2+2',
    colour: 'red',
    description:
      'A street-trim Evolution that seats four: two facing forward and two on a rear flip seat that folds into a cargo deck. The AC motor gives a quiet 19 mph. A versatile, well-priced cart for neighborhood driving, beach gear and trips to the clubhouse.',
    price: 12495,
    featured: true,
  },
  {
    title: '2025 Evolution D5 Maverick 4',
    colour: 'navy',
    description:
      'The Maverick 4 seats four, all facing forward, so everyone can talk on the ride. It reaches 19 mph on a quiet AC motor and comes in street trim for paved roads. A comfortable choice for couples who often bring friends or grandchildren along.',
    price: 12995,
    featured: false,
  },
  {
    title: '2025 Evolution D5 Maverick 4+2',
    colour: 'white',
    description:
      'Seats six: four facing forward and two on a rear flip seat that folds into a cargo deck. The AC motor reaches 19 mph, and the street trim suits paved neighborhoods and shore towns. A good fit for families who need extra seats some days and hauling space on others.',
    price: 13795,
    featured: false,
  },
  {
    title: '2025 Evolution D5 Maverick 6',
    colour: 'champagne',
    description:
      'Three forward-facing rows seat six in the Maverick 6, a street-trim cart for larger families and group outings. The AC motor delivers a quiet 19 mph. Popular with rental homes and communities where several people ride together.',
    price: 14495,
    featured: false,
  },
  {
    title: '2025 Evolution D5 Ranger 2+2 Plus',
    colour: 'green',
    description:
      'The lifted Ranger version of the D5 seats four, with a rear flip seat that folds into a cargo deck. All-terrain tires and extra clearance handle grass, sand and gravel, and the AC motor reaches 19 mph. A strong choice for farms, campgrounds and beach access roads.',
    price: 13495,
    featured: false,
  },
  {
    title: '2025 Evolution D5 Ranger 4 Plus',
    colour: 'black',
    description:
      'A lifted D5 Ranger with four forward-facing seats and all-terrain tires. The AC motor gives a quiet 19 mph on pavement or packed dirt. Made for owners who want an off-road look and more clearance without giving up passenger comfort.',
    price: 13795,
    featured: false,
  },
  {
    title: '2025 Evolution D5 Ranger 6 Plus',
    colour: 'grey',
    description:
      'The lifted D5 Ranger with three forward-facing rows for six passengers. All-terrain tires and extra clearance take the whole group over grass, gravel and sand at up to 19 mph on an AC motor. Popular for lake houses, farms and large properties.',
    price: 15295,
    featured: false,
  },
  {
    title: '2025 Evolution D3 2+2',
    colour: 'sky',
    description:
      'A lower-priced way into the Evolution D series. It seats four, two forward and two on a rear flip seat, and reaches 19 mph on an AC motor. A sensible, easy-to-own cart for neighborhood rides and errands inside a community.',
    price: 10995,
    featured: false,
  },
  {
    title: '2025 Evolution Classic 2 Plus',
    colour: 'white',
    description:
      'A traditional two-seat golf cart with a DC motor and a top speed of 15 mph. Simple, proven and easy to maintain, it suits golf courses, private property and owners who want a no-frills cart at a fair price.',
    price: 8995,
    featured: false,
  },
  {
    title: '2025 Evolution Classic 2 Pro',
    colour: 'burgundy',
    description:
      'The two-seat Classic in the better-equipped Pro trim. It keeps the dependable DC motor and 15 mph top speed, and suits golfers, groundskeepers and property owners who want a classic cart with a few more comforts.',
    price: 9695,
    featured: false,
  },
  {
    title: '2025 Evolution Classic 4 Plus',
    colour: 'blue',
    description:
      "A four-seat Classic with a DC motor and a 15 mph top speed, at one of the lowest prices for a new four-seater on our lot. It's simple to own and easy to service. A favorite for retirement communities, campgrounds and family properties.",
    price: 10495,
    featured: true,
  },
  {
    title: '2025 Evolution Classic 4 Pro',
    colour: 'silver',
    description:
      'The four-seat Classic in the Pro trim, with the same dependable DC motor and 15 mph top speed. A comfortable, traditional cart for communities and properties where four people ride together at an easy pace.',
    price: 11295,
    featured: false,
  },
  {
    title: '2025 Evolution Carrier 6 Plus',
    colour: 'champagne',
    description:
      'A six-passenger shuttle with forward-facing rows, built for moving guests at resorts, campgrounds, marinas and wedding venues. The AC motor reaches 19 mph. Communities and businesses use it to move people from parking to the door without a van.',
    price: 13995,
    featured: true,
  },
  {
    title: '2025 Evolution Carrier 8 Plus',
    colour: 'white',
    description:
      'Our largest shuttle seats eight in forward-facing rows. It moves guests between parking, lodging and event space at resorts, campgrounds and large communities, and its AC motor reaches 19 mph. Quiet and exhaust-free, so it works indoors and out.',
    price: 16495,
    featured: false,
  },
  {
    title: '2025 Evolution Forester 4 Plus',
    colour: 'green',
    description:
      'A lifted four-seater on all-terrain tires, built for trails, farm lanes and sandy roads. The AC motor reaches 19 mph. Good for owners of wooded lots, hunting properties and lake houses where the pavement ends early.',
    price: 12795,
    featured: false,
  },
  {
    title: '2025 Evolution Forester 6 Plus',
    colour: 'navy',
    description:
      'The six-seat Forester pairs a lifted chassis and all-terrain tires with room for the whole group. The AC motor reaches 19 mph. Made for campgrounds, farms and big properties where six people need to get across rough ground together.',
    price: 14295,
    featured: false,
  },
  {
    title: '2025 Evolution Turfman 800',
    colour: 'green',
    description:
      'A two-seat electric utility vehicle with a rear cargo bed for tools, mulch, feed and supplies. The AC motor reaches 19 mph and runs quietly, so it works early in the morning around homes and guests. Built for groundskeepers, farms, marinas and facility crews.',
    price: 11995,
    featured: false,
  },
  {
    title: '2025 Evolution Turfman 1000',
    colour: 'red',
    description:
      'The step-up model in Evolution\'s Turfman utility line, with two seats and a rear cargo bed built for all-day hauling. The AC motor reaches 19 mph without noise or exhaust. A good fit for farms, golf courses, campgrounds and maintenance crews that work from dawn to dusk.',
    price: 13495,
    featured: false,
  },
]
