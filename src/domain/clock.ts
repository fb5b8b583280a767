/** Injected wherever time matters, so tests can stand at 23:59:59 UTC or at a cycle's end. */
export type Clock = () => Date
export const systemClock: Clock = () => new Date()

const DAY_MS = 86_400_000

/** The day of the last `utcDay` call (its first millisecond and its text): nearly every call falls on it. */
let lastDayStart = NaN
let lastDay = ''

/** The UTC calendar day of an instant, `YYYY-MM-DD`: the quota's unit. */
export function utcDay(at: Date): string {
  const t = at.getTime()
  // Every request asks for it, often twice; formatting a date costs more than the rest of it.
  if (t >= lastDayStart && t < lastDayStart + DAY_MS) return lastDay
  const day = at.toISOString().slice(0, 10)
  lastDayStart = Math.floor(t / DAY_MS) * DAY_MS
  lastDay = day
  return day
}

/** Midnight UTC after `at`: when the daily quota resets. (UTC days have exactly 86,400,000 ms in ECMAScript time.) */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS + DAY_MS)
}

let lastResetDay = ''
let lastReset = new Date(NaN)

/** Midnight UTC at the end of `day` (`YYYY-MM-DD`): when that day's quota resets. */
export function midnightAfter(day: string): Date {
  if (day !== lastResetDay) {
    lastReset = new Date(Date.parse(day + 'T00:00:00Z') + DAY_MS)
    lastResetDay = day
  }
  return lastReset
}

export function addUtcDays(day: string, delta: number): string {
  const d = new Date(day + 'T00:00:00Z')
  d.setUTCDate(d.getUTCDate() + delta)
  return utcDay(d)
}
