/** Injected wherever time matters, so tests can stand at 23:59:59 UTC or at a cycle's end. */
export type Clock = () => Date
export const systemClock: Clock = () => new Date()

/** The UTC calendar day of an instant, `YYYY-MM-DD`: the quota's unit. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/** Midnight UTC after `at`: when the daily quota resets. */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1))
}

export function addUtcDays(day: string, delta: number): string {
  const d = new Date(day + 'T00:00:00Z')
  d.setUTCDate(d.getUTCDate() + delta)
  return utcDay(d)
}
