import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      "dist/",
      "public/build/",
      "data/",
      "test-results/",
      "playwright-report/",
      "tests/artifacts/",
      "bench/bare/build/",
      "bench/bare/public/build/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // route → service → (domain, db, providers): routes never reach the database or an
    // outside service themselves.
    files: ["app/routes/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "drizzle-orm", message: "Routes reach the database through a service (app/services)." }],
          patterns: [
            {
              group: ["~/db", "~/db/*", "drizzle-orm/*"],
              message: "Routes reach the database through a service (app/services).",
            },
            {
              group: ["~/providers/index.server", "~/providers/*/*", "!~/providers/*/types"],
              message: "Routes reach outside services through a service; providers are chosen once at boot.",
            },
          ],
        },
      ],
    },
  },
  {
    // Services get their providers from the load context (app/providers/index.server.ts), never by import.
    files: ["app/services/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/providers/index.server", "~/providers/*/*", "!~/providers/*/types"],
              message: "Services use services.providers; providers are chosen once at boot.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["scripts/**", "tests/**", "bench/**", "*.config.*"],
    rules: { "no-console": "off" },
  },
  {
    // Playwright fixtures take `use` and an empty destructuring by design.
    files: ["tests/e2e/**"],
    rules: { "no-empty-pattern": "off", "react-hooks/rules-of-hooks": "off" },
  },
);
