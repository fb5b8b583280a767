import { defineConfig } from 'drizzle-kit'

// drizzle-kit reads the schema and writes reviewed, append-only SQL migrations to drizzle/.
// The same migrations serve PGlite (embedded) and PostgreSQL (DATABASE_URL).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
})
