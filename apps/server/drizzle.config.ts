import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate` writes SQL migrations from src/db/schema.ts; the server applies
// them at start-up, on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "./src/db/migrations",
});
