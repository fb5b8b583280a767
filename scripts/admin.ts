// Operator CLI: `npm run admin -- <command> [--flag value …]` (src/cli/admin.ts does the work).
import { runAdmin } from '../src/cli/admin.ts'

process.exitCode = await runAdmin(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
})
