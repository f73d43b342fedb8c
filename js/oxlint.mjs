// oxlint (Rust; `linter=oxlint`, the default) with lint.mjs's ESLint rule set, for a batch of samples.
//
// Why: ESLint with typescript-eslint costs ~75 ms of CPU per realistic sample, most of a check;
// oxlint lints a whole batch in a few ms per sample. oxlint has no in-process API that returns
// diagnostics (its native code prints to fd 1, this worker's protocol channel), so a persistent
// oxlint process (oxlint_server.mjs) runs `oxlint --format json` once per batch over the batch
// written to a private temp folder; the worker starts the run and does its TypeScript work while
// oxlint lints.
// The rules are lint.mjs's RULES, renamed (ESLINT_TO_OXLINT); answers carry the ESLint rule names,
// so the two linters' reports compare name for name. Rules oxlint lacks are listed in NOT_IN_OXLINT
// with what that costs; bench/react.py measures the agreement with ESLint (`line_agreement`).
// A parse error: ESLint gives one fatal message and lints nothing else; check_worker.mjs does the
// same for both linters (the fatal message goes on the parse error's primary line).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { RULES } from "./lint.mjs";
import { END } from "./oxlint_server.mjs";

const require = createRequire(import.meta.url);
const OXLINT_BIN = path.join(path.dirname(require.resolve("oxlint/package.json")), "bin", "oxlint");
export const OXLINT_VERSION = require("oxlint/package.json").version;
const SERVER = fileURLToPath(new URL("./oxlint_server.mjs", import.meta.url));

// ESLint rules with no oxlint counterpart, and why leaving them out changes little.
export const NOT_IN_OXLINT = {
  "no-dupe-args": "a syntax error in a module (strict mode): the parsers report it",
  "no-octal": "a syntax error in a module (strict mode): the parsers report it",
  "react/jsx-uses-vars": "reports nothing itself (marks JSX names as used); oxlint's no-unused-vars sees JSX uses",
  "react/no-deprecated": "no oxlint rule: deprecated React APIs (ReactDOM.render, componentWillMount, ...) go unreported",
};

// "no-empty" -> "eslint/no-empty", "react-hooks/x" -> "react/x" (oxlint's react plugin has the hooks
// rules), "@typescript-eslint/no-unused-vars" -> "eslint/no-unused-vars" (oxlint's is TypeScript-aware).
function oxlintName(rule) {
  if (rule === "@typescript-eslint/no-unused-vars") return "eslint/no-unused-vars";
  if (rule.startsWith("@typescript-eslint/")) return `typescript/${rule.slice("@typescript-eslint/".length)}`;
  if (rule.startsWith("react-hooks/")) return `react/${rule.slice("react-hooks/".length)}`;
  return rule.includes("/") ? rule : `eslint/${rule}`;
}

const SEVERITY = { 0: "off", 1: "warn", 2: "error", off: "off", warn: "warn", error: "error" };
const ENABLED = Object.entries(RULES).filter(([rule, level]) => SEVERITY[level] !== "off" && !(rule in NOT_IN_OXLINT));
export const ESLINT_TO_OXLINT = Object.fromEntries(ENABLED.map(([rule]) => [rule, oxlintName(rule)]));
// oxlint's diagnostic code, e.g. "eslint(no-unused-vars)" or "react-hooks(rules-of-hooks)" (it
// names the hooks rules by ESLint's plugin) -> the ESLint rule name.
const FROM_CODE = Object.fromEntries(ENABLED.flatMap(([rule]) => {
  const [plugin, name] = oxlintName(rule).split("/");
  const codes = [[`${plugin}(${name})`, rule]];
  if (rule.startsWith("react-hooks/")) codes.push([`react-hooks(${name})`, rule]);
  return codes;
}));

const CONFIG = {
  plugins: ["react", "typescript"],
  categories: { correctness: "off" }, // exactly the rules below, no oxlint defaults
  env: { browser: true, es2024: true },
  settings: { react: { version: "19.0" } },
  rules: Object.fromEntries(ENABLED.map(([rule, level]) => [oxlintName(rule), SEVERITY[level]])),
};

function run(args) {
  const out = spawnSync(process.execPath, [OXLINT_BIN, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  // Exit 1 means "found problems"; anything else is oxlint failing.
  if (out.error || (out.status !== 0 && out.status !== 1)) {
    throw new Error(`oxlint failed (exit ${out.status}): ${out.error ? out.error.message : out.stderr.slice(-1000)}`);
  }
  return out.stdout;
}

// Start the oxlint server; returns send(args) -> a promise of what oxlint printed. Requests go one at
// a time (a check worker lints one batch at a time). If the server dies, this worker cannot lint any more:
// it exits without answering, as when its TypeScript server fails (the pool replaces it).
function startServer() {
  const child = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  let text = "";
  let pending = null;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    text += chunk;
    const end = text.indexOf(END);
    if (end >= 0 && pending) {
      const resolve = pending;
      pending = null;
      resolve(text.slice(0, end));
      text = text.slice(end + END.length);
    }
  });
  child.on("exit", (code, signal) => {
    process.stderr.write(`oxlint server exited (code ${code}, signal ${signal})\n`);
    process.exit(1);
  });
  return (args) => new Promise((resolve) => {
    pending = resolve;
    child.stdin.write(JSON.stringify(args) + "\n");
  });
}

export function makeOxlint() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bot_repro_oxlint_"));
  const config = path.join(dir, ".oxlintrc.json");
  fs.writeFileSync(config, JSON.stringify(CONFIG));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  // A rule oxlint renamed or dropped must stop the worker, not quietly go unchecked.
  const known = new Set(JSON.parse(run(["--rules", "--format", "json"])).map((r) => `${r.scope}/${r.value}`));
  const unknown = Object.values(ESLINT_TO_OXLINT).filter((r) => !known.has(r));
  if (unknown.length) throw new Error(`oxlint ${OXLINT_VERSION} has no rule ${unknown.join(", ")}; update js/oxlint.mjs`);

  const server = startServer();

  // codes: one string (or null: not linted) per item -> a promise of one message list per item, as
  // lint.mjs's (0-indexed lines); a diagnostic without a rule (oxc's parser or semantic checks) has
  // rule "parse".
  return async (codes) => {
    const files = codes.map((code, i) => (code === null ? null : path.join(dir, `sample${i}.tsx`)));
    const index = new Map();
    files.forEach((f, i) => {
      if (f === null) return;
      fs.writeFileSync(f, codes[i]);
      index.set(f, i);
    });
    const messages = codes.map(() => []);
    if (!index.size) return messages;
    const printed = await server(["-c", config, "--format", "json", "--threads=1", "--no-ignore", ...index.keys()]);
    let report;
    try {
      report = JSON.parse(printed);
    } catch {
      throw new Error(`oxlint printed no JSON report: ${printed.slice(0, 500)}`);
    }
    for (const d of report.diagnostics) {
      const i = index.get(d.filename);
      if (i === undefined) continue;
      const span = d.labels && d.labels[0] ? d.labels[0].span : null;
      messages[i].push({
        line: span ? Math.max(0, span.line - 1) : 0,
        col: span ? Math.max(0, span.column - 1) : 0,
        severity: d.code ? (d.severity === "error" ? "error" : "warning") : "error",
        source: "oxlint",
        rule: d.code ? FROM_CODE[d.code] || d.code : "parse",
        message: d.message,
      });
    }
    for (const f of index.keys()) fs.rmSync(f, { force: true });
    for (const list of messages) list.sort((a, b) => a.line - b.line || a.col - b.col);
    return messages;
  };
}
