// Persistent check worker for bot_repro's React task.
//
// Owns the Node side of "does this single-file React app compile" (docs/method.md §4) and its
// protocol; each job has its module: syntax.mjs (TypeScript 5.9's parse, syntax errors, language),
// transpile.mjs (esbuild, or Babel, the paper's), bundle_checks.mjs (imports against the page's
// local React/ReactDOM and the allowed UI libraries of libs.mjs; the default export), typecheck.mjs
// (TypeScript 7's type errors: line penalties by default, not failures), styles.mjs (Tailwind CSS),
// oxlint.mjs (or ESLint 9, lint.mjs: ESLint's recommended, React and hooks rules) and vendor.mjs
// (the page's vendor files). It speaks JSON lines: stdin gets one request per line, stdout gets one
// answer line per checked item (everything a library prints goes to stderr). The first stdout line
// is {"ready": true, "js_fences", "versions", ...}, sent once every tool is loaded and warm.
//
// Requests:
//   {"id", "op": "check", "items": [{"code", "lang"?, "delay_ms"?}], "typecheck": "penalise" | "fail" | "off",
//    "eslint": true (lint at all), "linter": "oxlint" | "eslint", "transpiler": "esbuild" | "babel",
//    "allowed_imports": ["react", ...],
//    "tailwind": "static" | "browser"}
//     lang: the fence's tag. A sample is TypeScript (and type-checked) unless its fence says
//     jsx/js/javascript or its code has no type syntax.
//     tailwind: "static" compiles the sample's Tailwind CSS here (styles.mjs; the page links it),
//     "browser" leaves it to Tailwind's browser build in the page.
//     -> one line per item, in order: {"id", "index", "ok", "stage", "lang", "diagnostics", "eslint",
//        "bundle", "deps", "chunks", "css", "sourcemap", "timings"}
//   {"id", "op": "vendor"} -> {"id", "vendor_js", "tailwind_js", "chunks": {name: js}}
// Diagnostics after a parse error: one fault, one penalised line. TypeScript's parser (it parses
// JSX and JavaScript too) and the transpiler both report it; primaryParseError keeps the one
// report that names the fault best, and the other tools' reports of the same fault are dropped
// (the other parser's, TypeScript's cascades, type errors). ESLint's fatal parse message is kept
// (its -0.5 is a global term) but placed on that line.
// Items of one request share one TypeScript snapshot (each sample stays its own module); only
// TypeScript samples with valid syntax are loaded into it.
// Line numbers in answers' fields are 0-indexed lines of the item's code (reason strings, made in
// Python, say 1-based lines). Absent options take the defaults of DEFAULTS (Python always sends them).
// `node check_worker.mjs --once` answers a single request and exits (the one-process-per-sample
// baseline of the benchmark).

import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { BatchTypeChecker, TS_NATIVE_VERSION } from "./typecheck.mjs";
import { ESLINT_VERSION, makeLinter } from "./lint.mjs";
import { OXLINT_VERSION, makeOxlint } from "./oxlint.mjs";
import { Libraries, PROVIDABLE } from "./libs.mjs";
import { TAILWIND_VERSION, tailwindCss } from "./styles.mjs";
import { diag, hasTypeSyntax, parse, primaryParseError, ts } from "./syntax.mjs";
import { bundleImports, missingDefaultExport } from "./bundle_checks.mjs";
import { babelPage, esbuild, esbuildPage } from "./transpile.mjs";
import { pagePlugin, vendor } from "./vendor.mjs";

// Libraries sometimes log; stdout is reserved for protocol lines.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

const JS_DIR = path.dirname(fileURLToPath(import.meta.url));

// Samples live at virtual paths inside js/ so module resolution finds js/node_modules/@types.
const VIRTUAL_DIR = path.join(JS_DIR, "__virtual__");
const JS_FENCES = new Set(["jsx", "js", "javascript"]);
const CHOICES = { typecheck: ["penalise", "fail", "off"], transpiler: ["esbuild", "babel"], linter: ["oxlint", "eslint"], tailwind: ["static", "browser"] };
const DEFAULTS = { typecheck: "penalise", transpiler: "esbuild", linter: "oxlint", tailwind: "static" };

const libs = new Libraries(JS_DIR);
const typeChecker = new BatchTypeChecker(VIRTUAL_DIR, { "lucide-legacy.d.ts": libs.legacyTypes() });
const lint = makeLinter(VIRTUAL_DIR);
const oxlint = makeOxlint();

// The TypeScript server is a child process; when it fails, this worker cannot check anything
// more, so it exits without answering: the pool scores the sample in hand as a worker failure
// (with this stderr line) and re-runs the rest on a fresh worker.
function withTypeChecker(fn) {
  try {
    return fn();
  } catch (err) {
    process.stderr.write(`TypeScript server failed: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

// ---------------------------------------------------------------- one item
// `prep`: the item's parse and language, done for the whole batch before its TypeScript snapshot.
// `linted`: the item's oxlint messages (oxlint lints the whole batch at once), or null.
async function checkItem(slot, code, prep, opts, linted) {
  const timings = { parse_ms: prep.parse_ms };
  const t0 = performance.now();
  const typed = slot !== null;
  const typeErrors = typed ? withTypeChecker(() => typeChecker.typeErrors(slot)).map((e) => {
    const pos = prep.sourceFile.getLineAndCharacterOfPosition(Math.min(e.start ?? 0, code.length));
    return diag(pos.line, pos.character, "tsc", `TS${e.code}`, e.message);
  }) : [];
  timings.tsc_ms = performance.now() - t0;

  const t1 = performance.now();
  const page = opts.transpiler === "babel" ? babelPage(code) : await esbuildPage(code);
  timings.transpile_ms = performance.now() - t1;

  let stage = null;
  let diagnostics;
  let primary = null; // the parse error that explains the rest
  if (prep.syntax.length || page.js === null) {
    // Which line a parse error is on follows Babel's report (its closing-tag errors name a
    // different tag than esbuild's), so both transpilers penalise the same line: Babel runs only
    // on the samples esbuild rejects.
    let reported = page.diagnostics;
    if (page.js === null && opts.transpiler === "esbuild") {
      const tb = performance.now();
      const babelReport = babelPage(code);
      if (babelReport.js === null) reported = babelReport.diagnostics;
      timings.transpile_ms += performance.now() - tb;
    }
    primary = primaryParseError(prep.syntax, reported, code, prep.sourceFile);
    diagnostics = [primary];
    if (page.js === null) stage = "transpile";
    else if (opts.typecheck === "fail" && prep.ts) stage = "typecheck";
  } else {
    diagnostics = [...typeErrors];
    if (opts.typecheck === "fail" && typeErrors.length) stage = "typecheck";
  }

  const t2 = performance.now();
  let bundle = null;
  let deps = "";
  let chunks = [];
  if (page.js !== null) {
    const imports = bundleImports(prep.sourceFile, opts.allowed_imports, libs);
    const problems = imports.problems;
    const noDefault = missingDefaultExport(prep.sourceFile);
    if (noDefault) problems.push(noDefault);
    diagnostics.push(...problems);
    if (problems.length) stage = stage || "bundle";
    else if (stage === null) {
      bundle = page.js;
      deps = libs.depsScript(imports.uses);
      chunks = imports.chunks;
    }
  }
  timings.bundle_ms = performance.now() - t2;
  let css = "";
  if (bundle !== null && opts.tailwind === "static") {
    const tc = performance.now();
    css = await tailwindCss(code);
    timings.css_ms = performance.now() - tc;
  }

  const t3 = performance.now();
  let lintMessages = [];
  if (opts.eslint && opts.linter === "eslint") lintMessages = lint(code);
  else if (opts.eslint && prep.syntax.length) {
    // As ESLint (its parser is TypeScript's): one fatal message, nothing else linted.
    const first = prep.syntax[0];
    lintMessages = [{ line: first.line, col: first.col, severity: "fatal", source: "oxlint", rule: "parse", message: first.message }];
  } else if (opts.eslint) lintMessages = linted;
  if (primary !== null) {
    lintMessages = lintMessages.map((m) => (m.severity === "fatal" && m.line !== primary.line
      ? { ...m, line: primary.line, col: primary.col, reported_line: m.line } : m));
  }
  timings.lint_ms = performance.now() - t3;
  timings.total_ms = performance.now() - t0 + prep.parse_ms;
  return {
    ok: stage === null, stage, lang: prep.ts ? "ts" : "js", diagnostics, eslint: lintMessages, bundle, deps, chunks,
    css, sourcemap: bundle === null ? null : page.map, timings,
  };
}

function options(req) {
  const allowed = Array.isArray(req.allowed_imports) ? req.allowed_imports.map(String) : PROVIDABLE;
  const unknown = allowed.filter((p) => !PROVIDABLE.includes(p));
  if (unknown.length) throw new Error(`allowed_imports names ${unknown.join(", ")}; this toolchain provides ${PROVIDABLE.join(", ")}`);
  for (const p of ["react", "react-dom"]) if (!allowed.includes(p)) throw new Error(`allowed_imports must include ${p}`);
  const picked = {};
  for (const [key, choices] of Object.entries(CHOICES)) {
    picked[key] = req[key] ?? DEFAULTS[key];
    if (!choices.includes(picked[key])) throw new Error(`${key}=${JSON.stringify(picked[key])}; allowed: ${choices.join(", ")}`);
  }
  return { ...picked, eslint: req.eslint !== false, allowed_imports: allowed };
}

async function check(req, send) {
  const items = Array.isArray(req.items) ? req.items : [];
  const opts = options(req);
  const preps = items.map((it) => {
    const t = performance.now();
    const code = String(it.code ?? "");
    const { sourceFile, syntax } = parse(code);
    const isTs = !JS_FENCES.has(String(it.lang ?? "").toLowerCase()) && hasTypeSyntax(sourceFile);
    return { sourceFile, syntax, ts: isTs, parse_ms: performance.now() - t };
  });
  // oxlint lints the batch in one run (items with a syntax error get ESLint's one fatal message),
  // in its own process while this one loads the TypeScript snapshot and checks the items.
  const lintable = items.map((it, i) => (preps[i].syntax.length === 0 ? String(it.code ?? "") : null));
  const linting = opts.eslint && opts.linter === "oxlint" ? oxlint(lintable) : null;
  // Only TypeScript with valid syntax is type-checked (type errors after a syntax error are cascades).
  const typed = preps.map((p) => opts.typecheck !== "off" && p.ts && p.syntax.length === 0);
  const t0 = performance.now();
  const slots = withTypeChecker(() => typeChecker.setBatch(items.map((it, i) => (typed[i] ? String(it.code ?? "") : null))));
  const snapshotMs = (performance.now() - t0) / Math.max(1, typed.filter(Boolean).length);
  // lint_ms of oxlint: the wait for its report, shared out (the rest of its run overlapped).
  const tl = performance.now();
  const linted = linting ? await linting : items.map(() => null);
  const lintMs = (performance.now() - tl) / Math.max(1, items.length);
  for (let i = 0; i < items.length; i++) {
    // Fault injection for the pool's timeout/crash tests: hold this item before answering.
    if (items[i].delay_ms) await new Promise((r) => setTimeout(r, Number(items[i].delay_ms)));
    let answer;
    try {
      answer = await checkItem(typed[i] ? slots[i] : null, String(items[i].code ?? ""), preps[i], opts, linted[i]);
      answer.timings.lint_ms += lintMs;
      answer.timings.total_ms += lintMs;
      if (typed[i]) {
        // The batch's snapshot (parsing the typed samples) is shared out over them.
        answer.timings.tsc_ms += snapshotMs;
        answer.timings.total_ms += snapshotMs;
      }
    } catch (err) {
      answer = { error: `worker error: ${err && err.stack ? err.stack : String(err)}` };
    }
    send({ id: req.id, index: i, ...answer });
  }
}

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    send({ id: null, error: `bad request line: ${err.message}` });
    return;
  }
  try {
    if (req.op === "check") await check(req, send);
    else if (req.op === "vendor") send({ id: req.id, ...(await vendor(libs)) });
    else send({ id: req.id, error: `unknown op ${JSON.stringify(req.op)}; valid ops: check, vendor` });
  } catch (err) {
    send({ id: req.id, error: `worker error: ${err && err.stack ? err.stack : String(err)}` });
  }
}

const WARM_UP = [
  'import { Sun } from "lucide-react";\nimport { FaBeer } from "react-icons/fa";\n' +
  'export default function App() { const n: number = 1; return <div className="p-2"><Sun />{n}<FaBeer /></div>; }',
  'export default function App() { return <div className="p-2">ok</div>; }',
];

async function main() {
  const once = process.argv.includes("--once");
  await libs.buildChunks(esbuild, pagePlugin);
  // Warm every tool once so the first real sample is not charged for lazy loading.
  await check({ items: WARM_UP.map((code) => ({ code })) }, () => {});
  send({ ready: true, pid: process.pid, js_fences: [...JS_FENCES], versions: { typescript: TS_NATIVE_VERSION, typescript_ast: ts.version, eslint: ESLINT_VERSION, oxlint: OXLINT_VERSION, esbuild: esbuild.version, tailwind: TAILWIND_VERSION } });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  // One request at a time: the pool sends the next only after the last answer of this one.
  for await (const line of rl) {
    if (!line.trim()) continue;
    await handle(line);
    if (once) break;
  }
  await esbuild.stop();
  typeChecker.close();
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`check worker failed to start: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
