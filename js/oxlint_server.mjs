// A persistent oxlint process for one check worker (oxlint.mjs starts it).
//
// Why: `oxlint` is a Node script around a native binding; starting it costs ~0.1 s of CPU, several
// times the linting of a 30-sample batch. This process loads the binding once and runs the CLI's
// own entry point (its `lint(args, ...)`) once per request. The binding prints the report to fd 1
// itself, so stdout is this process's answer channel: each request is one stdin line (a JSON array
// of CLI arguments); each answer is the report oxlint printed, then END. oxlint.mjs parses what came
// before END as the report.

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

export const END = "\u0000\n"; // JSON text never holds a NUL byte
const require = createRequire(import.meta.url);
const bindings = path.join(path.dirname(require.resolve("oxlint/package.json")), "dist", "bindings.js");

// The CLI's callbacks serve JS plugins and JS configs, which our JSON config does not use; oxlint
// still creates a workspace (a no-op here). Any other call is a config that needs JS: fail loudly.
const unused = (name) => () => {
  throw new Error(`oxlint called ${name}: the worker's config must not need JS plugins or JS configs`);
};
const createWorkspace = () => Promise.resolve();
const destroyWorkspace = () => undefined;

async function serve() {
  const { r: lint } = await import(pathToFileURL(bindings).href); // the binding's `lint`, as dist/cli.js imports it
  // Buffered writes from Node would race the binding's own writes to fd 1: write synchronously.
  process.stdout._handle?.setBlocking?.(true);
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    await lint(JSON.parse(line), unused("loadPlugin"), unused("setupRuleConfigs"), unused("lintFile"), createWorkspace,
      destroyWorkspace, unused("loadJsConfigs"));
    fs.writeSync(1, END);
  }
}

// Run as a program (oxlint.mjs imports END only).
if (process.argv[1] === fileURLToPath(import.meta.url)) await serve();
