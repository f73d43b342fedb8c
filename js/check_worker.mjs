// Persistent check worker for bot_repro's React task.
//
// Owns the Node side of "does this single-file React app compile" (docs/method.md §4): esbuild (or Babel, the
// paper's) transpiles it, it bundles against the page's local React/ReactDOM and the allowed UI
// libraries (libs.mjs), and, for TypeScript, TypeScript 7 reports its type errors (typecheck.mjs),
// which are line penalties by default, not failures. oxlint (oxlint.mjs; or ESLint 9, lint.mjs)
// with ESLint's recommended, React and hooks rules lints every sample. It speaks JSON lines: stdin gets one request per line, stdout gets one answer line
// per checked item (everything a library prints goes to stderr). The first stdout line is
// {"ready": true, ...}, sent once every tool is loaded and warm.
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

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { BatchTypeChecker, TS_NATIVE_VERSION } from "./typecheck.mjs";
import { ESLINT_VERSION, makeLinter } from "./lint.mjs";
import { OXLINT_VERSION, makeOxlint } from "./oxlint.mjs";
import { Libraries, PAGE_MODULES, PROVIDABLE } from "./libs.mjs";
import { TAILWIND_VERSION, tailwindCss } from "./styles.mjs";

// Libraries sometimes log; stdout is reserved for protocol lines.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

const JS_DIR = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ts = require("typescript"); // 5.9: the parser (syntax errors, AST for the bundle checks)
const babel = require("@babel/core");
const presetTs = require("@babel/preset-typescript");
const presetReact = require("@babel/preset-react");
const commonjs = require("@babel/plugin-transform-modules-commonjs");
const esbuild = require("esbuild");

// Samples live at virtual paths inside js/ so module resolution finds js/node_modules/@types.
const VIRTUAL_DIR = path.join(JS_DIR, "__virtual__");
const JS_FENCES = new Set(["jsx", "js", "javascript"]);
const CHOICES = { typecheck: ["penalise", "fail", "off"], transpiler: ["esbuild", "babel"], linter: ["oxlint", "eslint"], tailwind: ["static", "browser"] };
const DEFAULTS = { typecheck: "penalise", transpiler: "esbuild", linter: "oxlint", tailwind: "static" };

const libs = new Libraries(JS_DIR);
const typeChecker = new BatchTypeChecker(VIRTUAL_DIR, { "lucide-legacy.d.ts": libs.legacyTypes() });
const lint = makeLinter(VIRTUAL_DIR);
const oxlint = makeOxlint();

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

// ---------------------------------------------------------------- parse, language
function parse(code) {
  const sourceFile = ts.createSourceFile("App.tsx", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TSX);
  const syntax = sourceFile.parseDiagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).map((d) => {
    const pos = sourceFile.getLineAndCharacterOfPosition(Math.min(d.start ?? 0, code.length));
    return diag(pos.line, pos.character, "tsc", `TS${d.code}`, ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  });
  return { sourceFile, syntax };
}

const TS_ONLY_MODIFIERS = new Set([
  ts.SyntaxKind.PublicKeyword, ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.ReadonlyKeyword,
  ts.SyntaxKind.AbstractKeyword, ts.SyntaxKind.DeclareKeyword, ts.SyntaxKind.OverrideKeyword,
]);
const TS_ONLY_NODES = new Set([
  ts.SyntaxKind.InterfaceDeclaration, ts.SyntaxKind.TypeAliasDeclaration, ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ModuleDeclaration, ts.SyntaxKind.AsExpression, ts.SyntaxKind.SatisfiesExpression,
  ts.SyntaxKind.NonNullExpression, ts.SyntaxKind.TypeAssertionExpression, ts.SyntaxKind.ImportEqualsDeclaration,
]);

// Does the code use any TypeScript-only syntax (annotations, interfaces, `as`, generics, ...)?
function hasTypeSyntax(sourceFile) {
  let found = false;
  const visit = (node) => {
    if (found) return;
    if (TS_ONLY_NODES.has(node.kind)
      || (node.type && ts.isTypeNode(node.type))
      || node.typeParameters?.length || node.typeArguments?.length
      || ((ts.isParameter(node) || ts.isPropertyDeclaration(node)) && node.questionToken)
      || ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) && node.exclamationToken)
      || ((ts.isImportDeclaration(node) && node.importClause?.isTypeOnly) || ((ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) && node.isTypeOnly))
      || (ts.isExportDeclaration(node) && node.isTypeOnly)
      || (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword)
      || (ts.canHaveModifiers(node) && (ts.getModifiers(node) || []).some((m) => TS_ONLY_MODIFIERS.has(m.kind)))) {
      found = true;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

// One fault, one line: of the parse errors both parsers report, the one that names the fault best.
//   1. An unterminated string, template, regular expression or comment: TypeScript's scanner names
//      its line exactly.
//   2. "Expected corresponding JSX closing tag for <X>" (the transpiler, at a closing tag): either
//      that closing tag is wrong, or X was left unclosed and the closing tag is its parent's. In
//      formatted code a closing tag is indented like its own opening tag: the same indentation as
//      X's opening line -> the closing tag is wrong (its line); another -> X is unclosed (the line
//      of X's opening tag, as TypeScript's tree has it).
//   3. Else TypeScript's earliest syntax error by position (the parser went wrong there; what
//      follows is mostly cascade, and an unclosed element is reported at its opening tag only
//      after the parser has run past it), else the transpiler's.
const SCANNER_ERRORS = new Set(["TS1002", "TS1160", "TS1161", "TS1010"]);
const MISMATCHED_CLOSE = /^Expected corresponding JSX closing tag for <([^>]+)>|^Unexpected closing "[^"]*" tag does not match opening "([^"]*)" tag/;
// The line of the opening tag that TypeScript's (error-tolerant) tree pairs with the closing tag
// at (line, col), when that element is `tag`.
function openingLineOf(sourceFile, line, col, tag) {
  let pos;
  try {
    pos = sourceFile.getPositionOfLineAndCharacter(line, col);
  } catch {
    return null;
  }
  let found = null;
  const visit = (node) => {
    if (found !== null || pos < node.pos || pos > node.end) return;
    if (ts.isJsxClosingElement(node) && node.getStart(sourceFile) === pos && ts.isJsxElement(node.parent)
      && node.parent.openingElement.tagName.getText(sourceFile) === tag) {
      found = sourceFile.getLineAndCharacterOfPosition(node.parent.openingElement.getStart(sourceFile)).line;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function primaryParseError(tsSyntax, transpile, code, sourceFile) {
  const scanner = tsSyntax.find((d) => SCANNER_ERRORS.has(d.rule));
  if (scanner) return scanner;
  for (const d of transpile) {
    const m = d.line === null ? null : d.message.match(MISMATCHED_CLOSE);
    if (!m) continue;
    const tag = m[1] || m[2];
    const lines = code.split("\n");
    const indent = (l) => lines[l].match(/^\s*/)[0].length;
    const named = tsSyntax.find((t) => t.rule === "TS17008" && t.message.startsWith(`JSX element '${tag}' `));
    const open = named ? named.line : openingLineOf(sourceFile, d.line, d.col, tag);
    if (open === null || open === d.line || indent(open) === indent(d.line)) return d;
    return named || { ...d, line: open, col: indent(open), message: `JSX element <${tag}> has no closing tag (${d.message})` };
  }
  const earliest = [...tsSyntax].sort((a, b) => a.line - b.line || a.col - b.col)[0];
  return earliest || transpile[0];
}

// ---------------------------------------------------------------- bundle checks
// Names used as values (not only as types): Babel drops an import whose bindings are never used
// as values, so only these must exist at run time.
function valueNames(sourceFile) {
  const names = new Set();
  const visit = (node) => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node)) {
      const p = node.parent;
      const isName = p && ((ts.isPropertyAccessExpression(p) && p.name === node) || (ts.isPropertyAssignment(p) && p.name === node)
        || (ts.isJsxAttribute(p) && p.name === node) || (ts.isQualifiedName(p) && p.right === node));
      if (!isName) names.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return names;
}

// Every import the page must satisfy: unresolvable or disallowed ones are diagnostics on their
// line; allowed ones are checked against the module's export list. Returns the diagnostics and the
// sample's needs: icon modules (`uses`) and chunk libraries.
function bundleImports(sourceFile, allowed) {
  const problems = [];
  const uses = new Map();
  const chunks = new Set();
  let values = null;
  const at = (node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  // names: [imported, local (null: a re-export), the node naming it]; a missing name is reported on
  // that node's line (a multi-line import names each on its own line).
  const need = (node, spec, names, all) => {
    const r = libs.resolve(spec, allowed);
    const pos = at(node);
    if (r.rule) {
      problems.push(diag(pos.line, pos.character, "bundle", r.rule, r.message));
      return;
    }
    if (r.kind === "page") return;
    if (r.kind === "chunk") chunks.add(spec);
    if (r.exports !== null && !all) {
      values = values || valueNames(sourceFile);
      for (const [imported, local, nameNode] of names) {
        if (local !== null && !values.has(local)) continue; // type-only use: Babel drops it
        if (!r.exports.has(imported)) {
          const at_ = at(nameNode);
          problems.push(diag(at_.line, at_.character, "bundle", "missing-export",
            imported === "default" ? `${JSON.stringify(spec)} has no default export` : `${JSON.stringify(spec)} has no export named ${JSON.stringify(imported)}`));
        }
      }
    }
    if (r.kind === "icons") {
      const use = uses.get(spec) || { names: new Set(), all: false };
      for (const [imported] of names) use.names.add(imported);
      use.all = use.all || all;
      uses.set(spec, use);
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) return;
      const names = [];
      let all = false;
      if (clause?.name) names.push(["default", clause.name.text, clause.name]);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) all = true;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) if (!el.isTypeOnly) names.push([(el.propertyName || el.name).text, el.name.text, el.propertyName || el.name]);
      }
      need(node, node.moduleSpecifier.text, names, all);
      return;
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (node.isTypeOnly) return;
      const clause = node.exportClause;
      const names = clause && ts.isNamedExports(clause)
        ? clause.elements.filter((e) => !e.isTypeOnly).map((e) => [(e.propertyName || e.name).text, null, e.propertyName || e.name]) : [];
      need(node, node.moduleSpecifier.text, names, !clause || ts.isNamespaceExport(clause));
      return;
    }
    if (ts.isCallExpression(node) && node.arguments.length && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) {
        need(node, node.arguments[0].text, [], true);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { problems, uses, chunks: [...chunks] };
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

// ---------------------------------------------------------------- transpile
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
    const imports = bundleImports(prep.sourceFile, opts.allowed_imports);
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

// esbuild plugin: the page's own modules come from window.__botDeps, so every library shares the
// page's single React.
const pagePlugin = {
  name: "page-modules",
  setup(build) {
    build.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, (a) => (PAGE_MODULES.has(a.path) ? { path: a.path, namespace: "page" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "page" }, (a) => ({ contents: `module.exports = window.__botDeps[${JSON.stringify(a.path)}];`, loader: "js" }));
  },
};

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
    libs.vendorEntry(),
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
  const chunks = Object.fromEntries(Object.entries(libs.chunks()).map(([k, v]) => [k, v.js]));
  return { vendor_js: result.outputFiles[0].text, tailwind_js: tailwind, chunks };
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
