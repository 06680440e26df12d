/**
 * Where things go along a cart, measured from the rear bumper (x = 0) towards the nose.
 * The drawing reads this plan; nothing here draws.
 */
export interface CartOptions {
  /** Used for the accessible `<title>`. */
  title: string
  /** 2, 4, 6 or 8: one bench per two seats. */
  seats: number
  /** The last bench faces backwards ("2+2", "4+2", flip seats). */
  rearFacing: boolean
  /** Lift kit and big off-road tyres. */
  lifted: boolean
  /** A utility cargo bed behind a single bench (Turfman). */
  cargoBed: boolean
  bodyColour: string
  /** Nose and trim: rounded classic, sleek modern (Evolution D-series), square Denago. */
  style: 'classic' | 'modern' | 'denago'
}

export interface Bench {
  x: number
  facing: 'forward' | 'rear'
}

export interface CartLayout {
  length: number
  /** Ground line; everything stands on it. */
  ground: number
  /** Top of the floor and rocker panel. */
  floor: number
  wheelRadius: number
  rearWheelX: number
  frontWheelX: number
  benches: Bench[]
  /** Start and end of the rear body that carries the rear wheel. */
  rearBody: [number, number]
  roof: [number, number]
  /** x of the struts behind the windscreen. */
  struts: number[]
  rearEnd: 'bed' | 'bag' | 'step' | 'body'
}

export const GROUND = 480
export const BENCH = 100
const FOOTWELL = 60
const FRONT = 230

export function layoutCart(o: CartOptions): CartLayout {
  const wheelRadius = o.lifted ? 60 : 48
  const floor = o.lifted ? GROUND - wheelRadius - 30 : GROUND - wheelRadius - 14
  const benchCount = o.cargoBed ? 1 : Math.max(1, Math.round(o.seats / 2))
  const benches: Bench[] = []
  let x: number
  let rearEnd: CartLayout['rearEnd']
  let rearWheelX: number
  if (o.cargoBed) {
    rearEnd = 'bed'
    x = 188
    rearWheelX = 100
  } else if (benchCount === 1) {
    rearEnd = 'bag'
    x = 64
    rearWheelX = 76
  } else if (o.rearFacing) {
    rearEnd = 'step'
    benches.push({ x: 40, facing: 'rear' })
    x = 144
    rearWheelX = 102
  } else {
    rearEnd = 'body'
    x = 28
    rearWheelX = 82
  }
  const rearStart = x
  const forward = benchCount - benches.length
  for (let i = 0; i < forward; i++) {
    benches.push({ x, facing: 'forward' })
    x += BENCH + (i < forward - 1 ? FOOTWELL : 0)
  }
  const length = x + FRONT
  const forwardBenches = benches.filter((b) => b.facing === 'forward')
  const roofRear = rearEnd === 'step' ? 24 : rearStart - 22
  const middle = forwardBenches.slice(rearEnd === 'step' ? 0 : 1, -1).map((b) => b.x - 2)
  const rearBodyEnd = rearEnd === 'bed' ? rearStart - 4 : rearStart + BENCH
  return {
    length,
    ground: GROUND,
    floor,
    wheelRadius,
    rearWheelX: o.lifted ? rearWheelX + 4 : rearWheelX,
    frontWheelX: length - (o.lifted ? 86 : 80),
    benches,
    rearBody: [rearEnd === 'step' ? 30 : 4, rearBodyEnd],
    roof: [roofRear, length - 142],
    struts: [roofRear + 16, ...middle],
    rearEnd,
  }
}
