import { defineConfig } from "drizzle-kit";

// The PostgreSQL twin of drizzle.config.ts (docs/scaling.md, section 10): its own schema, its own migrations.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema-pg/index.ts",
  out: "./migrations/pg",
});
