import type { RequestInfo } from '../http/request-info.ts'
import type { Services } from '../services.ts'

export interface Context extends Services {
  request: RequestInfo
}

export function createContextInner(services: Services, request: RequestInfo = {}): Context {
  return { ...services, request }
}
