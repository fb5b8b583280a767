// PGlite is a single-process database: two processes opening one data folder would corrupt
// it. A lock file with the owner's pid keeps the admin CLI off a folder a server has open.
import { openSync, writeSync, closeSync, readFileSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { DomainError } from '../errors.ts'

export interface DataDirLock {
  release(): void
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function acquireDataDirLock(dataDir: string, owner: string): DataDirLock {
  const path = join(dataDir, 'embedded.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, JSON.stringify({ pid: process.pid, owner, since: new Date().toISOString() }))
      closeSync(fd)
      let released = false
      return {
        release() {
          if (released) return
          released = true
          try {
            unlinkSync(path)
          } catch {
            /* already gone */
          }
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      let holder: { pid?: number; owner?: string } = {}
      try {
        holder = JSON.parse(readFileSync(path, 'utf8'))
      } catch {
        /* unreadable: treat as stale */
      }
      if (holder.pid && alive(holder.pid)) {
        throw new DomainError(
          'DATABASE_IN_USE',
          `The embedded database in ${dataDir} is in use by a running ${holder.owner ?? 'process'} (pid ${holder.pid}). ` +
            'Stop it first, or run the service on PostgreSQL with DATABASE_URL so several processes can share the database.',
        )
      }
      // The holder died without cleaning up: take the lock over.
      try {
        unlinkSync(path)
      } catch {
        /* raced with another taker */
      }
    }
  }
  throw new DomainError('DATABASE_IN_USE', `Could not lock the embedded database in ${dataDir}`)
}
