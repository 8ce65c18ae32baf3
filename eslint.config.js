// Type-aware lint of every package, test, example and benchmark. The rules are
// about promises and real bugs, not style: a forgotten `await` passes the type
// check (a Promise is a value like any other) and shows up later as a race, a
// write outside its transaction or "[object Promise]" in an answer.
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  // test/packed-app is an app of its own, installed outside the workspace by test/packed-install.test.ts.
  { ignores: ["**/node_modules/", "data/", "**/dist/", "examples/demo/files/", "examples/demo/images/", "test/packed-app/"] },
  {
    files: ["**/*.ts", "**/*.mjs", "**/*.js"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // Each file is checked by the tsconfig that owns it: packages/core/src by the
        // core's (no Node types), the rest by the root one. Plain scripts, which no
        // tsconfig includes, get a default project with the root's options.
        projectService: {
          allowDefaultProject: [
            "*.js", "scripts/*.mjs", "bench/*.mjs", "packages/cli/bin/*.mjs",
            "packages/adapter-images/src/*.mjs", "packages/adapter-search/src/document-texts/*.mjs", "examples/demo/scripts/*.mjs",
          ],
          // The ten small scripts above: the default of 8 guards against a glob that sweeps in a tree.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 12,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A promise nobody awaits: its failure is lost and its work races what follows.
      "@typescript-eslint/no-floating-promises": "error",
      // A promise where a value is meant: `if (promise)`, `{ ...promise }`, an async
      // callback handed to something that ignores what it returns (its errors are lost).
      "@typescript-eslint/no-misused-promises": "error",
      // `await` on what is not a promise: usually a port read as async that is not, or the reverse.
      "@typescript-eslint/await-thenable": "error",
      // `${promise}` renders "[object Promise]": an await forgotten inside a template.
      "@typescript-eslint/restrict-template-expressions": ["error", {
        allowAny: true, allowBoolean: true, allowNullish: true, allowNumber: true, allowRegExp: true, allowNever: true,
      }],
      // `return promise` inside try/catch skips the catch (and a `finally` runs before it settles).
      "@typescript-eslint/return-await": ["error", "error-handling-correctness-only"],
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      "@typescript-eslint/only-throw-error": "error",
      "no-async-promise-executor": "error",
      // Real bugs of the recommended set that our code never needs to do.
      "@typescript-eslint/no-array-delete": "error",
      "@typescript-eslint/no-for-in-array": "error",
      "@typescript-eslint/no-implied-eval": "error",
      "no-control-regex": "error",
      // A `/// <reference types="node" />` would bring Node's globals back into the core's type check.
      "@typescript-eslint/triple-slash-reference": ["error", { lib: "never", path: "never", types: "never" }],
      // Off on purpose: an async method with no await is how an in-memory or synchronous
      // driver implements a promise port (a throw becomes a rejection, as a caller
      // expects). A forgotten await inside it is caught by no-floating-promises instead.
      "@typescript-eslint/require-await": "off",
    },
  },
);
