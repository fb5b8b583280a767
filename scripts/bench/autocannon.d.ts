// The part of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  namespace autocannon {
    interface Request {
      method?: string
      path?: string
      headers?: Record<string, string>
      body?: string
    }
    interface Options {
      url: string
      method?: string
      headers?: Record<string, string>
      body?: string
      connections?: number
      duration?: number
      overallRate?: number
      requests?: { setupRequest?: (req: Request) => Request }[]
      /** Called with each connection's client, an EventEmitter: 'response' (statusCode, bytes, ms, rate). */
      setupClient?: (client: EventEmitter) => void
    }
    interface Histogram {
      average: number
      p50: number
      p99: number
      max: number
      total: number
    }
    interface Result {
      duration: number
      requests: Histogram
      latency: Histogram
      non2xx: number
      errors: number
      timeouts: number
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>
  export default autocannon
}
