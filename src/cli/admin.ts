// The operator CLI as a function: `scripts/admin.ts` is its process (argv, environment, exit
// code); tests call it in-process with the same arguments an operator types.
// Prints one JSON object on stdout and returns 0; on failure a clear message on stderr and a
// non-zero code (2 for usage errors).
import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import { openDatabase, type Database, type OpenOptions } from '../db/client.ts'
import { createRepositories } from '../db/repositories/index.ts'
import { systemClock } from '../domain/clock.ts'
import { createAccount, requireAccountByEmail, PLAN_NAMES } from '../domain/accounts.ts'
import { createToken, revokeToken } from '../domain/tokens.ts'
import { changePlan } from '../domain/billing.ts'
import { hashPassword, PASSWORD_MIN_LENGTH } from '../domain/passwords.ts'
import { DomainError } from '../errors.ts'

export interface AdminDeps {
  /** Where DATABASE_URL, DATA_DIR and TOKEN_PREFIX are read. */
  env: NodeJS.ProcessEnv
  /** Receives whole lines (each ends with a newline). */
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Opens the database each command runs on (default: the service's own openDatabase). */
  openDatabase?: (opts: OpenOptions) => Promise<Database>
}

const USAGE = `usage: npm run admin -- <command> [options]
  account:create --email E --plan P [--password W]   create an account (plans: ${PLAN_NAMES.join(', ')})
  account:password --email E --password W           set a new password (min. 12 characters); ends the account's dashboard sessions
  plan:set       --email E --plan P                  change the plan (upgrade now, prorated; downgrade at the next cycle)
  token:create   --email E --name N                  create a token and print it (the only time it is shown)
  token:list     --email E                           list the account's tokens (never their values)
  token:revoke   --id ID                             revoke a token, immediately and permanently
Uses DATABASE_URL, or the embedded database in DATA_DIR (default ./data) when the server is not running.`

type Flags = { email?: string; plan?: string; password?: string; name?: string; id?: string }

function need(flags: Flags, ...names: (keyof Flags)[]) {
  const missing = names.filter((n) => !flags[n])
  if (missing.length) throw new DomainError('USAGE', `missing ${missing.map((n) => '--' + n).join(', ')}\n${USAGE}`)
}

function assertPassword(password: string) {
  if ([...password].length < PASSWORD_MIN_LENGTH)
    throw new DomainError('WEAK_PASSWORD', `A password must have at least ${PASSWORD_MIN_LENGTH} characters`)
}

async function run(command: string, flags: Flags, database: Database, tokenPrefix: string) {
  const deps = { repos: createRepositories(database.db), clock: systemClock, tokenPrefix }
  switch (command) {
    case 'account:create': {
      need(flags, 'email', 'plan')
      if (flags.password !== undefined) assertPassword(flags.password)
      const account = await createAccount(deps, {
        email: flags.email!,
        plan: flags.plan!,
        passwordHash: flags.password ? await hashPassword(flags.password) : null,
      })
      return { id: account.id, email: account.email, plan: account.plan, createdAt: account.createdAt }
    }
    case 'account:password': {
      need(flags, 'email', 'password')
      assertPassword(flags.password!)
      const account = await requireAccountByEmail(deps.repos, flags.email!)
      const { sessionsEnded } = await deps.repos.accounts.setPassword(account.id, account.email, await hashPassword(flags.password!))
      return { email: account.email, passwordSet: true, sessionsEnded }
    }
    case 'plan:set': {
      need(flags, 'email', 'plan')
      const account = await requireAccountByEmail(deps.repos, flags.email!)
      const { quote, entry } = await changePlan(deps, account.id, flags.plan!)
      return {
        email: account.email,
        change: quote.kind,
        fromPlan: quote.fromPlan,
        toPlan: quote.toPlan,
        effectiveAt: quote.effectiveAt,
        amountCents: quote.amountCents,
        prorationFraction: Number(quote.prorationFraction.toFixed(6)),
        ledgerEntryId: entry.id,
      }
    }
    case 'token:create': {
      need(flags, 'email', 'name')
      const account = await requireAccountByEmail(deps.repos, flags.email!)
      const created = await createToken(deps, account.id, flags.name!)
      return { token: created.token, id: created.id, name: created.name }
    }
    case 'token:list': {
      need(flags, 'email')
      const account = await requireAccountByEmail(deps.repos, flags.email!)
      return { tokens: await deps.repos.tokens.listByAccount(account.id) }
    }
    case 'token:revoke': {
      need(flags, 'id')
      const row = await revokeToken(deps, flags.id!)
      return { id: row.id, name: row.name, revokedAt: row.revokedAt }
    }
    default:
      throw new DomainError('USAGE', command ? `unknown command "${command}"\n${USAGE}` : USAGE)
  }
}

/** Runs one command; resolves to the process's exit code. */
export async function runAdmin(argv: string[], deps: AdminDeps): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        plan: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        id: { type: 'string' },
      },
    })
  } catch (err) {
    deps.stderr(`admin: ${(err as Error).message}\n${USAGE}\n`)
    return 2
  }
  const [command] = parsed.positionals
  if (!command || !/^(account:create|account:password|plan:set|token:create|token:list|token:revoke)$/.test(command)) {
    deps.stderr(`${command ? `admin: unknown command "${command}"\n${USAGE}` : USAGE}\n`)
    return 2
  }
  let database: Database | undefined
  try {
    const config = loadConfig(deps.env)
    database = await (deps.openDatabase ?? openDatabase)({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      owner: 'admin CLI',
      maxConnections: 2,
    })
    const result = await run(command, parsed.values, database, config.tokenPrefix)
    deps.stdout(JSON.stringify(result) + '\n')
    return 0
  } catch (err) {
    if (err instanceof DomainError) {
      deps.stderr(`admin: ${err.message}\n`)
      return err.code === 'USAGE' ? 2 : 1
    }
    deps.stderr(`admin: ${(err as Error).message}\n`)
    return 1
  } finally {
    await database?.close()
  }
}
