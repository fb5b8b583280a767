// PGlite is a single-process database: two processes opening one data folder would corrupt
// it. A lock file with the owner's pid keeps the admin CLI off a folder a server has open.
//
// Every step is atomic, so that of many processes starting at once exactly one holds the lock:
// - a lock file appears complete or not at all: it is written under a name of its own, then
//   hard-linked to `embedded.lock` (link fails if that name exists, like O_EXCL);
// - a lock file is never changed, and each has its own nonce;
// - a lock left by a dead process is removed only by the one process that created
//   `embedded.lock.takeover-<its nonce>` first (O_EXCL), and only while it is still that lock.
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { createHash, randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { DomainError } from '../errors.ts'

export interface DataDirLock {
  release(): void
}

interface Holder {
  pid?: number
  owner?: string
  nonce?: string
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code
}

/** The lock file as it is now, or undefined when there is none. */
function readLock(path: string): { holder: Holder; id: string } | undefined {
  let raw: string
  try {
    raw = readFileSync(path, 'utf8')
  } catch (err) {
    if (code(err) === 'ENOENT') return undefined
    throw err
  }
  let holder: Holder = {}
  try {
    holder = JSON.parse(raw) as Holder
  } catch {
    // unreadable: a stale lock of no one
  }
  // A lock written without a nonce (by an older version) is known by its content.
  const id =
    typeof holder.nonce === 'string' && /^[0-9a-f]{32}$/.test(holder.nonce)
      ? holder.nonce
      : createHash('sha256').update(raw).digest('hex').slice(0, 32)
  return { holder, id }
}

function inUse(dataDir: string, holder: Holder): DomainError {
  return new DomainError(
    'DATABASE_IN_USE',
    `The embedded database in ${dataDir} is in use by a running ${holder.owner ?? 'process'} (pid ${holder.pid}). ` +
      'Stop it first, or run the service on PostgreSQL with DATABASE_URL so several processes can share the database.',
  )
}

/** Blocks the thread for `ms` (start-up only: the lock is taken before anything else runs). */
function pause(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

export function acquireDataDirLock(dataDir: string, owner: string): DataDirLock {
  const path = join(dataDir, 'embedded.lock')
  const nonce = randomBytes(16).toString('hex')
  const mine = `${path}.${nonce}`
  writeFileSync(mine, JSON.stringify({ pid: process.pid, owner, since: new Date().toISOString(), nonce }), { flag: 'wx' })
  try {
    // Each round either takes the lock, finds a live holder, or sees another process change the
    // lock; a few thousand rounds cover any number of processes starting together.
    for (let round = 0; round < 5000; round++) {
      try {
        linkSync(mine, path)
        return heldLock(path, nonce)
      } catch (err) {
        if (code(err) !== 'EEXIST') throw err
      }
      const current = readLock(path)
      if (!current) continue // released meanwhile
      if (current.holder.pid && alive(current.holder.pid)) throw inUse(dataDir, current.holder)
      // The holder died without cleaning up: take the lock over, if no one else is.
      const claim = `${path}.takeover-${current.id}`
      try {
        writeFileSync(claim, String(process.pid), { flag: 'wx' })
      } catch (err) {
        if (code(err) !== 'EEXIST') throw err
        let claimant = NaN
        try {
          claimant = Number(readFileSync(claim, 'utf8'))
        } catch {
          continue // just released
        }
        if (claimant > 0 && !alive(claimant)) {
          throw new DomainError(
            'DATABASE_IN_USE',
            `A process (pid ${claimant}) died while taking over the stale lock of ${dataDir}; remove ${path} and ${claim} once no process uses the folder`,
          )
        }
        pause(1)
        continue
      }
      try {
        // Only the claimant removes this lock: if it is still there, it stays until we do.
        if (readLock(path)?.id === current.id) unlinkSync(path)
      } finally {
        unlinkSync(claim)
      }
    }
    throw new DomainError('DATABASE_IN_USE', `Could not lock the embedded database in ${dataDir}`)
  } finally {
    unlinkSync(mine)
  }
}

function heldLock(path: string, nonce: string): DataDirLock {
  let released = false
  return {
    release() {
      if (released) return
      released = true
      // Ours only: a lock that is not ours is never removed.
      if (readLock(path)?.id !== nonce) return
      try {
        unlinkSync(path)
      } catch {
        /* already gone */
      }
    },
  }
}
