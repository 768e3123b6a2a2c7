import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };

export default defineConfig({
  resolve: { alias },
  test: {
    globals: false,
    // Both cores: the default leaves one free, and most of a file's time is its own
    // database (PGlite in the worker, or PostgreSQL beside it).
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}"],
          environment: "node",
          // The property tests run hundreds of cases: beside the other suites on two cores a
          // few seconds more than alone.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/setup/msw.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          environment: "node",
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // Each file starts real servers, one file at a time in a process. npm test runs this
          // project in two such processes, half the files each, beside the unit and integration
          // tests: its time is mostly the servers', in processes of their own.
          pool: "threads",
          poolOptions: { threads: { singleThread: true } },
        },
      },
      {
        resolve: { alias },
        test: {
          // npm run test:deploy (scripts/test-deploy.sh) only: nginx, PostgreSQL restarts and a
          // rolling restart under load take minutes, more than npm test has in CI.
          name: "deploy",
          include: ["tests/deploy/**/*.test.ts"],
          environment: "node",
          testTimeout: 300_000,
          hookTimeout: 240_000,
          pool: "threads",
          poolOptions: { threads: { singleThread: true } },
        },
      },
    ],
  },
});
