// Each request's logger, made when the request first logs something. Fastify gives every
// request a pino child bound to its id, and pino writes a child's bindings out as JSON text when
// the child is made; at the service's level (warn) nearly every request logs nothing, so that
// work would be thrown away. The child is the same one Fastify would make (same parent, bindings
// and options), so redaction, serializers and the request id are as before.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'
import type { Logger } from 'pino'

/** Fastify's logger is pino's, which can say whether a level is on. */
type Parent = FastifyBaseLogger & Pick<Logger, 'isLevelEnabled'>
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: object,
  ) {}

  get level(): string {
    return this.#child ? this.#child.level : this.parent.level
  }

  set level(level: string) {
    this.real().level = level
  }

  /** The pino child, made on first use. */
  real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options))
  }

  // The level is the parent's until the child exists (a child made with a level of its own is
  // made at once: `lazyRequestLogger`), so the parent says whether a call would write anything.
  #log(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !(this.parent as Parent).isLevelEnabled(level)) return
    const real = this.real()
    Reflect.apply(real[level], real, args)
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args)
  }
  error(...args: unknown[]): void {
    this.#log('error', args)
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args)
  }
  info(...args: unknown[]): void {
    this.#log('info', args)
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args)
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args)
  }
  silent(): void {}

  child(...args: Parameters<FastifyBaseLogger['child']>): FastifyBaseLogger {
    return this.real().child(...args)
  }
}

/** Fastify's `childLoggerFactory`: the child Fastify would make, made on the request's first log call. */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  // A route with its own level decides by that level: its child is made at once, as before.
  (options as { level?: string }).level !== undefined ? logger.child(bindings, options) : new LazyRequestLogger(logger, bindings, options)
