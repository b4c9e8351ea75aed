import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * The rooms of ../shared/style.md, checked on every import (`@/` and relative, resolved through tsconfig's paths).
 * Product code is what the platform's processes run; tests, the fake couriers, the synthetic directory and the
 * seed data are its tools and may import across rooms.
 */
const PRODUCT = [
  "app/**",
  "server/**",
  "components/**",
  "lib/**",
  "db/**",
  "trpc/**",
  "proxy.ts",
  "instrumentation.ts",
];
const NOT_PRODUCT = [
  "**/*.test.ts",
  "**/*.test.tsx",
  "server/couriers/fake-process.ts",
  "server/couriers/*/fake-*",
  "server/pickup-points/synthetic.ts",
  "db/seed.ts",
];

const ROOMS = [
  {
    target: "server/services",
    from: ["app", "server/trpc", "server/http"],
    message: "Doors call services, never the reverse: move what both need below them (server/errors.ts, lib/).",
  },
  {
    target: "server/couriers",
    from: ["db", "server/services", "server/jobs", "server/queue"],
    message: "A courier adapter knows no database and no service: shared vocabulary lives in lib/.",
  },
  {
    target: "server/services",
    from: "server/jobs",
    message: "Services enqueue through server/queue/ (names, payloads, enqueueJobs); only the worker runs jobs.",
  },
  {
    target: "server/queue",
    from: ["server/jobs", "server/services"],
    message: "The queue contract sits below services and the worker.",
  },
  {
    target: "db",
    from: "server",
    except: ["./env.ts", "./observability/logger.ts"],
    message: "db/ reaches up only to server/env.ts and the logger.",
  },
  {
    target: ["db", "lib", "server"],
    from: ["app", "components"],
    message: "Pages and components sit above the server and the shared modules.",
  },
  {
    target: PRODUCT,
    from: [
      "**/*.test.ts",
      "**/*.test.tsx",
      "test/**",
      "e2e/**",
      "bench/**",
      "scripts/**",
      "server/couriers/fake-*",
      "server/couriers/*/fake-*",
      "server/pickup-points/synthetic*",
    ],
    message: "Product code never imports a test helper, a fake courier or the synthetic directory.",
  },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    name: "rooms",
    files: PRODUCT,
    ignores: NOT_PRODUCT,
    rules: {
      "import/no-restricted-paths": ["error", { zones: ROOMS }],
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "The environment is read in server/env.ts: env() once, currentEnv for what changes while running.",
        },
      ],
    },
  },
  {
    name: "rooms/env",
    files: ["server/env.ts"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    name: "rooms/client",
    files: ["components/**", "lib/**"],
    ignores: NOT_PRODUCT,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./)+)(server|db)(/|$)",
              allowTypeImports: true,
              message: "Components and lib/ reach server code through types or the tRPC client: share values in lib/.",
            },
          ],
        },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    ".data/**",
    "bench/.tmp/**",
    "db/migrations/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
  ]),
]);
