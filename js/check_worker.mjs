// Persistent check worker for bot_repro's React task.
//
// Owns the Node side of "does this single-file React + TypeScript app compile": TypeScript
// diagnostics (syntax and types; typecheck.mjs), Babel (or esbuild) transpilation, bundling
// against the page's local React/ReactDOM, and ESLint 9 with React and hooks rules (lint.mjs).
// It speaks JSON lines: stdin gets one request per line, stdout gets one answer line per checked
// item (everything a library prints goes to stderr). The first stdout line is
// {"ready": true, ...}, sent once every tool is loaded and warm.
//
// Requests:
//   {"id", "op": "check", "items": [{"code", "delay_ms"?}], "typecheck": "fail" | "penalise" | "off",
//    "eslint": true, "transpiler": "babel" | "esbuild"}
//     ("fail": TypeScript errors make the item fail to compile; "penalise": they are reported only)
//     -> one line per item, in order: {"id", "index", "ok", "stage", "diagnostics", "eslint",
//        "bundle", "sourcemap", "timings"}
//   {"id", "op": "vendor"} -> {"id", "vendor_js", "tailwind_js"}: the page's React and Tailwind
// Items of one request share one TypeScript snapshot (each sample stays its own module; only a
// `declare global` block in one sample could leak into the others); each item is type-checked
// when its turn comes, so a sample that hangs the checker is the one that times out.
// Line numbers in answers are 0-indexed lines of the item's code.
// `node check_worker.mjs --once` answers a single request and exits (the one-process-per-sample
// baseline of the benchmark).

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { BatchTypeChecker, TS_NATIVE_VERSION } from "./typecheck.mjs";
import { ESLINT_VERSION, makeLinter } from "./lint.mjs";

// Libraries sometimes log; stdout is reserved for protocol lines.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

const JS_DIR = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ts = require("typescript"); // 5.9: the AST for the bundle checks and line numbers
const babel = require("@babel/core");
const presetTs = require("@babel/preset-typescript");
const presetReact = require("@babel/preset-react");
const commonjs = require("@babel/plugin-transform-modules-commonjs");
const esbuild = require("esbuild");

// Samples live at virtual paths inside js/ so module resolution finds js/node_modules/@types.
const VIRTUAL_DIR = path.join(JS_DIR, "__virtual__");
// Modules the page provides (window.__botDeps, filled by the vendor bundle); nothing else loads.
const PAGE_MODULES = new Set(["react", "react-dom", "react-dom/client", "react/jsx-runtime", "react/jsx-dev-runtime"]);

const typeChecker = new BatchTypeChecker(VIRTUAL_DIR);
const lint = makeLinter(VIRTUAL_DIR);

function diag(line, col, source, rule, message, severity = "error") {
  return { line, col, severity, source, rule, message };
}

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

function tsDiagnostics(slot, code, withTypes) {
  const { errors, syntaxOk } = withTypeChecker(() => typeChecker.diagnostics(slot, withTypes));
  const sourceFile = ts.createSourceFile("App.tsx", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TSX);
  const diagnostics = errors.map((e) => {
    const pos = sourceFile.getLineAndCharacterOfPosition(Math.min(e.start ?? 0, code.length));
    return diag(pos.line, pos.character, "tsc", `TS${e.code}`, e.message);
  });
  return { diagnostics, sourceFile, syntaxOk };
}

// Imports the page cannot satisfy, found statically (the page has React and ReactDOM only).
function unavailableImports(sourceFile) {
  const out = [];
  const report = (node, spec) => {
    if (PAGE_MODULES.has(spec)) return;
    const pos = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    out.push(diag(pos.line, pos.character, "bundle", "unavailable-import",
      `cannot bundle import ${JSON.stringify(spec)}: only react and react-dom are available`));
  };
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly;
      if (!typeOnly && ts.isStringLiteral(node.moduleSpecifier)) report(node, node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) {
        report(node, node.arguments[0].text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return out;
}

// Where a default export is missing, point at the component that should carry it: a named export,
// else the top-level capitalised declaration (App preferred, else the last one).
function missingDefaultExport(sourceFile) {
  const lineOf = (node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
  let namedExport = null;
  const candidates = [];
  for (const st of sourceFile.statements) {
    if (ts.isExportAssignment(st)) return null;
    const mods = ts.canHaveModifiers(st) ? ts.getModifiers(st) || [] : [];
    if (mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return null;
    const exported = mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      if (st.exportClause.elements.some((e) => e.name.text === "default")) return null;
      if (namedExport === null) namedExport = lineOf(st);
    }
    let names = [];
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) names = [st.name.text];
    if (ts.isVariableStatement(st)) {
      names = st.declarationList.declarations.filter((d) => ts.isIdentifier(d.name)).map((d) => d.name.text);
    }
    const components = names.filter((n) => /^[A-Z]/.test(n));
    if (components.length) {
      if (exported && namedExport === null) namedExport = lineOf(st);
      candidates.push({ line: lineOf(st), app: components.includes("App") });
    }
  }
  let line = 0;
  if (namedExport !== null) line = namedExport;
  else if (candidates.length) line = (candidates.find((c) => c.app) || candidates[candidates.length - 1]).line;
  return diag(line, 0, "bundle", "missing-default-export",
    "the module has no default export; the page renders the default-exported component");
}

// ---------------------------------------------------------------- transpile + bundle
// The page script: the sample as a CommonJS module whose require() serves the page's modules,
// then the vendor's __botMount renders its default export. The prefix stays on the first line
// so the sample's line numbers hold.
const PAGE_PREFIX =
  "(function(){var module={exports:{}};var exports=module.exports;" +
  "var process={env:{NODE_ENV:'production'}};" +
  "var require=function(n){if(n in window.__botDeps)return window.__botDeps[n];" +
  "throw new Error('module not available on the page: '+n);};";
const PAGE_SUFFIX = "\n;window.__botMount(module.exports);})();\n";

// Babel strips the types, compiles JSX for the automatic runtime and turns the ES module into
// CommonJS in one pass; resolved once, because resolving presets on every call costs about a
// third of the transform.
const BABEL_OPTIONS = babel.loadPartialConfig({
  filename: "App.tsx",
  babelrc: false,
  configFile: false,
  sourceType: "module",
  // Output lines equal input lines, so the page script needs only an identity line map.
  retainLines: true,
  presets: [
    [presetTs, { isTSX: true, allExtensions: true }],
    [presetReact, { runtime: "automatic" }],
  ],
  plugins: [commonjs],
}).options;

// Source map v3 sending line i of the page script to line i of the sample (column 0).
function identityLineMap(lineCount) {
  const mappings = lineCount > 0 ? "AAAA" + ";AACA".repeat(lineCount - 1) : "";
  return JSON.stringify({ version: 3, sources: ["App.tsx"], names: [], mappings });
}

function babelPage(code) {
  try {
    const out = babel.transformSync(code, BABEL_OPTIONS);
    const lines = code.split("\n").length;
    return { js: PAGE_PREFIX + out.code + PAGE_SUFFIX, map: identityLineMap(lines), diagnostics: [] };
  } catch (err) {
    const loc = err.loc || { line: 1, column: 0 };
    const message = String(err.message).split("\n")[0].replace(/^[^:]*App\.tsx: /, "");
    return { js: null, map: null, diagnostics: [diag(loc.line - 1, loc.column, "babel", err.reasonCode || "BabelError", message)] };
  }
}

async function esbuildPage(code) {
  try {
    const out = await esbuild.transform(code, {
      loader: "tsx",
      format: "cjs",
      jsx: "automatic",
      target: "es2020",
      sourcemap: "external",
      sourcesContent: false,
      sourcefile: "App.tsx",
      logLevel: "silent",
    });
    return { js: PAGE_PREFIX + out.code + PAGE_SUFFIX, map: out.map, diagnostics: [] };
  } catch (err) {
    const diagnostics = (err.errors || [{ text: String(err) }]).map((e) =>
      diag(e.location ? e.location.line - 1 : null, e.location ? e.location.column : 0, "esbuild", "transform", e.text));
    return { js: null, map: null, diagnostics };
  }
}

// ---------------------------------------------------------------- one item
async function checkItem(slot, code, opts) {
  const t0 = performance.now();
  const timings = {};
  const tsResult = tsDiagnostics(slot, code, opts.typecheck !== "off");
  timings.tsc_ms = performance.now() - t0;
  const diagnostics = [...tsResult.diagnostics];
  let stage = opts.typecheck === "fail" && tsResult.diagnostics.length ? "typecheck" : null;

  const t1 = performance.now();
  let js = null;
  let map = null;
  const page = opts.transpiler === "babel" ? babelPage(code) : await esbuildPage(code);
  diagnostics.push(...page.diagnostics);
  if (page.js === null) {
    stage = "transpile";
  } else {
    const bundleProblems = tsResult.syntaxOk ? unavailableImports(tsResult.sourceFile) : [];
    const noDefault = tsResult.syntaxOk ? missingDefaultExport(tsResult.sourceFile) : null;
    if (noDefault) bundleProblems.push(noDefault);
    diagnostics.push(...bundleProblems);
    if (bundleProblems.length) stage = stage || "bundle";
    else if (stage === null) ({ js, map } = page);
  }
  timings.transpile_bundle_ms = performance.now() - t1;

  const t2 = performance.now();
  const lintMessages = opts.eslint ? lint(code) : [];
  timings.eslint_ms = performance.now() - t2;
  timings.total_ms = performance.now() - t0;
  return { ok: stage === null, stage, diagnostics, eslint: lintMessages, bundle: js, sourcemap: map, timings };
}

async function check(req, send) {
  const items = Array.isArray(req.items) ? req.items : [];
  const opts = {
    typecheck: ["fail", "penalise", "off"].includes(req.typecheck) ? req.typecheck : "fail",
    eslint: req.eslint !== false,
    transpiler: req.transpiler === "esbuild" ? "esbuild" : "babel",
  };
  const t0 = performance.now();
  const slots = withTypeChecker(() => typeChecker.setBatch(items.map((it) => String(it.code ?? ""))));
  const snapshotMs = (performance.now() - t0) / Math.max(1, items.length);
  for (let i = 0; i < items.length; i++) {
    // Fault injection for the pool's timeout/crash tests: hold this item before answering.
    if (items[i].delay_ms) await new Promise((r) => setTimeout(r, Number(items[i].delay_ms)));
    let answer;
    try {
      answer = await checkItem(slots[i], String(items[i].code ?? ""), opts);
      // The batch's snapshot (parsing every sample) is shared out over its items.
      answer.timings.tsc_ms += snapshotMs;
      answer.timings.total_ms += snapshotMs;
    } catch (err) {
      answer = { error: `worker error: ${err && err.stack ? err.stack : String(err)}` };
    }
    send({ id: req.id, index: i, ...answer });
  }
}

async function vendor() {
  const entry = [
    'import * as React from "react";',
    'import * as ReactDOM from "react-dom";',
    'import * as ReactDOMClient from "react-dom/client";',
    'import * as JSXRuntime from "react/jsx-runtime";',
    "window.__botDeps = {",
    '  "react": React, "react-dom": ReactDOM, "react-dom/client": ReactDOMClient,',
    '  "react/jsx-runtime": JSXRuntime, "react/jsx-dev-runtime": JSXRuntime,',
    "};",
    "window.__botMount = function (mod) {",
    "  var App = mod && (mod.__esModule || 'default' in mod) ? mod.default : mod;",
    '  ReactDOMClient.createRoot(document.getElementById("root")).render(React.createElement(App));',
    "};",
  ].join("\n");
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: JS_DIR, sourcefile: "vendor.js", loader: "js" },
    bundle: true,
    write: false,
    minify: true,
    format: "iife",
    target: "es2020",
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const tailwind = fs.readFileSync(require.resolve("@tailwindcss/browser"), "utf8");
  return { vendor_js: result.outputFiles[0].text, tailwind_js: tailwind };
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
    else if (req.op === "vendor") send({ id: req.id, ...(await vendor()) });
    else send({ id: req.id, error: `unknown op ${JSON.stringify(req.op)}; valid ops: check, vendor` });
  } catch (err) {
    send({ id: req.id, error: `worker error: ${err && err.stack ? err.stack : String(err)}` });
  }
}

async function main() {
  const once = process.argv.includes("--once");
  // Warm every tool once so the first real sample is not charged for lazy loading.
  await check({ items: [{ code: 'export default function App() { return <div className="p-2">ok</div>; }' }] }, () => {});
  send({ ready: true, pid: process.pid, versions: { typescript: TS_NATIVE_VERSION, typescript_ast: ts.version, eslint: ESLINT_VERSION, esbuild: esbuild.version } });
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
