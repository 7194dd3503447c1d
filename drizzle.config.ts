import { defineConfig } from "drizzle-kit";

// `bun run db:generate` writes a new migration into migrations/ after a change to the schema.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./migrations",
});
