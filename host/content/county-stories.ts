import type { CountyValue } from '../../domain/counties.ts'

/**
 * The "Serving <County> Since 2009" paragraph of each county sales page. Each names both of the
 * county's story towns (domain/counties.ts); the test in county-stories.test.ts keeps it so.
 */
export const countyStories: Record<CountyValue, string> = {
  atlantic:
    'Our Pleasantville showroom on the Black Horse Pike sits a few miles from both ends of Atlantic County. In Atlantic City and the nearby island towns, owners use street-legal carts for beach trips, marina runs and errands on quiet side streets. Out in Hammonton, blueberry growers and farm stands rely on utility carts to move crates, tools and people between the rows.',
  bergen:
    'Bergen County is busy and built up, so most carts we sell here work inside a property line. In Hackensack, hospital and office campuses use them to move staff, visitors and supplies between buildings and parking decks. In Paramus and the towns around it, swim clubs, townhouse communities and large private properties use them for grounds work and event shuttles.',
  burlington:
    'Burlington County stretches from the office parks and townhouse communities of Mount Laurel to the blueberry and cranberry farms around Pemberton at the edge of the Pine Barrens. Homeowner associations use our carts for maintenance rounds and pool-area shuttles. Growers and horse owners choose lifted and utility models that handle sand roads and soft field edges.',
  camden:
    'In Cherry Hill, swim clubs, youth sports complexes and apartment communities use carts to carry gear and give rides across big parking lots and fields. In Voorhees, medical campuses and age-restricted neighborhoods use them for shuttles and maintenance work. Families across the county rent six-seaters for graduations, block parties and weddings.',
  'cape-may':
    'Cape May County is golf cart country, and our Ocean View showroom sits right in the middle of it. In Cape May Point, families ride quiet, low-speed streets to the beach and the lighthouse instead of hunting for parking. In Wildwood, carts haul chairs, umbrellas and coolers to the beach blocks all summer, and rental homes book six-seaters for the whole week.',
  cumberland:
    'Cumberland County is farm and nursery country. Around Vineland, growers and greenhouse operators use utility carts to move flats, tools and irrigation parts across their land. In Bridgeton, farms, campgrounds and parks use them for daily chores, and bayshore marinas down county use them to run gear to the docks.',
  essex:
    'In Newark, universities, hospitals and event venues use electric carts to move people and equipment across campuses where cars are not practical. In Montclair, schools, swim clubs and hillside properties use them for grounds work and for getting guests from the lot to the door. Quiet, exhaust-free electric motors suit these close-packed neighborhoods.',
  gloucester:
    'In Glassboro, campus crews and event staff use carts to move people and gear around a busy college town. In Woodbury and the townships around it, orchards, farm markets and youth sports leagues use them to cover ground quickly on game days and picking days. Many Gloucester County customers also rent carts for backyard weddings and graduation parties.',
  hudson:
    'Hudson County is the most crowded corner of the state, so carts here earn their keep in tight spaces. In Jersey City, property managers use them for security patrols and maintenance along the waterfront, in garages and at warehouses. In Hoboken, event crews and building staff use compact electric carts because they are quiet, produce no exhaust and fit where trucks cannot.',
  hunterdon:
    'Hunterdon County is horse farms, vineyards and rolling fields. Around Flemington, farm owners use lifted and utility carts for barn chores and fence checks, and wedding venues use them to shuttle guests. In Lambertville and the other Delaware River towns, campgrounds and riverfront properties use them to move people and gear up and down steep lots.',
  mercer:
    'In Trenton, office complexes, hospitals and event venues use electric carts to move staff and supplies between buildings and parking. In Princeton, schools, research campuses and private clubs use them for grounds crews and guest shuttles. Farms and equestrian properties in the northern townships round out a county where carts do real daily work.',
  middlesex:
    'In New Brunswick, university and hospital grounds use carts to carry people and equipment across crowded campuses. In Edison, warehouses and business parks use utility carts for security rounds and maintenance. The large active-adult communities in Monroe Township are home to many of our most loyal cart owners, who drive to the clubhouse, the pool and their neighbors every day.',
  monmouth:
    'Monmouth County mixes horse country with the shore. Around Freehold, horse farms and active-adult communities use carts for barn chores and trips to the clubhouse. In Asbury Park and the beach towns down the coast, businesses and event crews use them to move gear, and summer renters book street-legal carts for getting around town.',
  morris:
    "In Morristown, estates, private clubs and historic grounds use carts for maintenance and guest shuttles. In Parsippany, corporate campuses and lake communities use them for security rounds and trips to the beach club. Morris County's hills are steep, so we often set customers up with lifted models and the stronger AC motors that climb them without strain.",
  ocean:
    'Ocean County is home base: our Bayville and Waretown showrooms are both here. In Toms River, adult communities and bayfront neighborhoods use carts for daily errands, and barrier island visitors rent them by the week or the month. In Lakewood, schools, campuses and business parks use them to move people and supplies around busy grounds.',
  passaic:
    'In Paterson, hospitals, warehouses and event venues use carts to move people and material around large, busy sites. In Clifton, sports complexes, schools and apartment communities use them for maintenance and for getting people across big lots. Up north, lake communities in West Milford use lifted carts on hilly, unpaved roads.',
  salem:
    'Salem County is farm and river country. Around Salem, growers and dairy farms use utility carts to carry tools, feed and fencing across wide fields. In Pennsville, riverfront homes, campgrounds and parks along the Delaware use carts for short trips and weekend events.',
  somerset:
    "In Somerville, downtown event organizers and local businesses use carts to set up festivals and move vendors' gear. In Bridgewater, corporate campuses, sports venues and large neighborhoods use them for security, maintenance and shuttles. Horse farms and estates in the county's western hills rely on lifted and utility models.",
  sussex:
    'Sussex County is mountains, lakes and farms. Around Newton, farms and fair organizers use utility carts to move hay, tools and people. In Vernon, resorts and lake communities use lifted carts on steep, unpaved roads, and homeowners use them to get down to the water.',
  union:
    'In Elizabeth, port warehouses, hospitals and event spaces use electric carts for security and to move people and parts around large sites. In Westfield, swim clubs, schools and downtown events use them to shuttle guests and gear. Across Union County, quiet electric carts fit close-packed neighborhoods where gas engines would not be welcome.',
  warren:
    'Warren County is farm country along the Delaware River. Around Phillipsburg, farms, campgrounds and riverfront properties use lifted and utility carts on hills and gravel roads. In Hackettstown, the college campus, sports fields and local businesses use them to move people and equipment.',
}
