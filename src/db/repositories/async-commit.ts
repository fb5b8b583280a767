import { sql } from 'drizzle-orm'

/**
 * A condition that is always true and makes the statement's own transaction commit without
 * waiting for its WAL to reach the disk (`set_config(…, true)` lasts until that transaction
 * ends, and a single statement is its own transaction). What it changes is durability only:
 * the write is visible to every other statement, on every node, the moment it commits, exactly
 * as before; a crash of the database server (not of a node) may lose the writes of its last
 * ~0.6 s (three wal_writer_delay). Used only where such a loss is harmless (see the callers).
 * The wait it removes is a disk flush per commit, which dominates a short write when the disk
 * is busy (figures: docs/performance.md, "Database commits"). PGlite has no WAL writer: there an asynchronous commit's WAL stays in
 * memory until a later synchronous commit or a checkpoint writes it, and a killed process loses
 * it, however long ago it committed. So counts use it only on a PostgreSQL server (see usage.ts);
 * cache writes use it on both (a lost entry costs one analysis afresh). On a PostgreSQL server
 * opened by `openDatabase` neither needs this condition: both run on its `asyncDb`, whose sessions
 * commit asynchronously (no setting saved and restored in every transaction).
 */
export const asyncCommit = sql`set_config('synchronous_commit', 'off', true) = 'off'`
