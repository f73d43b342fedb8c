// Persistent check worker for bot_repro's React task.
//
// Owns the Node side of "does this single-file React + TypeScript app compile": TypeScript
// diagnostics (syntax and types, from a language service over in-memory files), Babel (or
// esbuild) transpilation, bundling against the page's local React/ReactDOM, and ESLint 9 with
// React and hooks rules. It speaks JSON lines: stdin gets one request per line, stdout gets one
// answer line per checked item (everything a library prints goes to stderr). The first stdout
// line is {"ready": true, ...}, sent once every tool is loaded and warm.
//
// Requests:
//   {"id", "op": "check", "items": [{"code", "delay_ms"?}], "typecheck": "fail" | "penalise" | "off",
//    "eslint": true, "transpiler": "babel" | "esbuild"}
//     ("fail": TypeScript errors make the item fail to compile; "penalise": they are reported only)
//     -> one line per item, in order: {"id", "index", "ok", "stage", "diagnostics", "eslint",
//        "bundle", "sourcemap", "timings"}
//   {"id", "op": "vendor"} -> {"id", "vendor_js", "tailwind_js"}: the page's React and Tailwind
// Items of one request share one TypeScript program: a fresh type checker costs tens of ms,
// so checking a batch together is about 2.5x faster per item (each sample stays its own module;
// only a `declare global` block in one sample could leak into the others). Line numbers in answers are
// 0-indexed lines of the item's code.
// `node check_worker.mjs --once` answers a single request and exits (the one-process-per-sample
// baseline of the benchmark).

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// Libraries sometimes log; stdout is reserved for protocol lines.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

const JS_DIR = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ts = require("typescript");
const babel = require("@babel/core");
const presetTs = require("@babel/preset-typescript");
const presetReact = require("@babel/preset-react");
const esbuild = require("esbuild");
const { ESLint } = require("eslint");
const eslintJs = require("@eslint/js");
const tsParser = require("@typescript-eslint/parser");
const tsPlugin = require("@typescript-eslint/eslint-plugin");
const reactPlugin = require("eslint-plugin-react");
const hooksPlugin = require("eslint-plugin-react-hooks");
const globals = require("globals");

// Samples live at virtual paths inside js/ so module resolution finds js/node_modules/@types.
const VIRTUAL_DIR = path.join(JS_DIR, "__virtual__");
// Modules the page provides (window.__botDeps, filled by the vendor bundle); nothing else loads.
const PAGE_MODULES = new Set(["react", "react-dom", "react-dom/client", "react/jsx-runtime", "react/jsx-dev-runtime"]);

// ---------------------------------------------------------------- TypeScript
const compilerOptions = {
  jsx: ts.JsxEmit.ReactJSX,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // Every sample is its own module, so samples of one batch never share top-level names.
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  // Lenient on style (implicit any, nulls): only real type errors count against a sample.
  strict: false,
  skipLibCheck: true,
  noEmit: true,
  isolatedModules: true,
  esModuleInterop: true,
  allowSyntheticDefaultImports: true,
  types: [],
};
let batchFiles = new Map(); // virtual path -> code of the current batch
let batchVersion = 0;
const libSnapshots = new Map();
const tsHost = {
  getCompilationSettings: () => compilerOptions,
  getScriptFileNames: () => [...batchFiles.keys()],
  getScriptVersion: (f) => (batchFiles.has(f) ? String(batchVersion) : "0"),
  getScriptSnapshot: (f) => {
    if (batchFiles.has(f)) return ts.ScriptSnapshot.fromString(batchFiles.get(f));
    if (!libSnapshots.has(f)) {
      const text = ts.sys.readFile(f);
      libSnapshots.set(f, text === undefined ? undefined : ts.ScriptSnapshot.fromString(text));
    }
    return libSnapshots.get(f);
  },
  getCurrentDirectory: () => JS_DIR,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => batchFiles.has(f) || ts.sys.fileExists(f),
  readFile: (f, enc) => (batchFiles.has(f) ? batchFiles.get(f) : ts.sys.readFile(f, enc)),
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const languageService = ts.createLanguageService(tsHost, ts.createDocumentRegistry());

function setBatch(codes) {
  batchFiles = new Map(codes.map((code, i) => [path.join(VIRTUAL_DIR, `sample${i}.tsx`), code]));
  batchVersion += 1;
  return [...batchFiles.keys()];
}

function diag(line, col, source, rule, message, severity = "error") {
  return { line, col, severity, source, rule, message };
}

function tsDiagnostics(file, withTypes) {
  const syntactic = languageService.getSyntacticDiagnostics(file);
  // Type-checking broken syntax only adds cascades; the syntax errors already locate the fault.
  const semantic = withTypes && syntactic.length === 0 ? languageService.getSemanticDiagnostics(file) : [];
  const sourceFile = languageService.getProgram().getSourceFile(file);
  const out = [];
  for (const d of [...syntactic, ...semantic]) {
    if (d.category !== ts.DiagnosticCategory.Error) continue;
    const pos = sourceFile.getLineAndCharacterOfPosition(d.start ?? 0);
    out.push(diag(pos.line, pos.character, "tsc", `TS${d.code}`, ts.flattenDiagnosticMessageText(d.messageText, "\n")));
  }
  return { diagnostics: out, sourceFile, syntaxOk: syntactic.length === 0 };
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
function babelTranspile(code) {
  try {
    const out = babel.transformSync(code, {
      filename: "App.tsx",
      babelrc: false,
      configFile: false,
      sourceType: "module",
      // Output lines equal input lines, so bundle positions map back to the sample's lines.
      retainLines: true,
      presets: [
        [presetTs, { isTSX: true, allExtensions: true }],
        [presetReact, { runtime: "automatic" }],
      ],
    });
    return { code: out.code, diagnostics: [] };
  } catch (err) {
    const loc = err.loc || { line: 1, column: 0 };
    const message = String(err.message).split("\n")[0].replace(/^[^:]*App\.tsx: /, "");
    return { code: null, diagnostics: [diag(loc.line - 1, loc.column, "babel", err.reasonCode || "BabelError", message)] };
  }
}

// The page script: the sample as a CommonJS module whose require() serves the page's modules,
// then the vendor's __botMount renders its default export. The prefix stays on the first line
// so the source map's line numbers hold.
const PAGE_PREFIX =
  "(function(){var module={exports:{}};var exports=module.exports;" +
  "var require=function(n){if(n in window.__botDeps)return window.__botDeps[n];" +
  "throw new Error('module not available on the page: '+n);};";
const PAGE_SUFFIX = "\n;window.__botMount(module.exports);})();\n";

async function toPageScript(code, loader) {
  try {
    const out = await esbuild.transform(code, {
      loader,
      format: "cjs",
      jsx: "automatic",
      target: "es2020",
      sourcemap: "external",
      sourcesContent: false,
      sourcefile: "App.tsx",
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
    return { js: PAGE_PREFIX + out.code + PAGE_SUFFIX, map: out.map, diagnostics: [] };
  } catch (err) {
    const diagnostics = (err.errors || [{ text: String(err) }]).map((e) =>
      diag(e.location ? e.location.line - 1 : null, e.location ? e.location.column : 0, "esbuild", "transform", e.text));
    return { js: null, map: null, diagnostics };
  }
}

// ---------------------------------------------------------------- ESLint
const eslint = new ESLint({
  cwd: JS_DIR,
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ["**/*.tsx"],
      languageOptions: {
        parser: tsParser,
        parserOptions: { ecmaFeatures: { jsx: true }, ecmaVersion: "latest", sourceType: "module" },
        globals: { ...globals.browser },
      },
      plugins: { react: reactPlugin, "react-hooks": hooksPlugin, "@typescript-eslint": tsPlugin },
      settings: { react: { version: "19.0" } },
      rules: {
        ...eslintJs.configs.recommended.rules,
        ...reactPlugin.configs.flat.recommended.rules,
        ...reactPlugin.configs.flat["jsx-runtime"].rules,
        // TypeScript resolves names and checks props; the core versions misfire on TSX.
        "no-undef": "off",
        "react/prop-types": "off",
        "no-unused-vars": "off",
        // Unused names are untidy, not wrong.
        "@typescript-eslint/no-unused-vars": "warn",
        "react-hooks/rules-of-hooks": "error",
        "react-hooks/exhaustive-deps": "warn",
      },
    },
  ],
});

async function lint(code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(VIRTUAL_DIR, "App.tsx") });
  return result.messages.map((m) => ({
    line: Math.max(0, (m.line || 1) - 1),
    col: Math.max(0, (m.column || 1) - 1),
    severity: m.fatal ? "fatal" : m.severity === 2 ? "error" : "warning",
    source: "eslint",
    rule: m.ruleId || (m.fatal ? "parse" : "eslint"),
    message: m.message,
  }));
}

// ---------------------------------------------------------------- one item
async function checkItem(file, code, opts) {
  const t0 = performance.now();
  const timings = {};
  const tsResult = tsDiagnostics(file, opts.typecheck !== "off");
  timings.tsc_ms = performance.now() - t0;
  const diagnostics = [...tsResult.diagnostics];
  let stage = opts.typecheck === "fail" && tsResult.diagnostics.length ? "typecheck" : null;

  const t1 = performance.now();
  let transpiled = code;
  let loader = "tsx";
  if (opts.transpiler === "babel") {
    const b = babelTranspile(code);
    diagnostics.push(...b.diagnostics);
    transpiled = b.code;
    loader = "js";
  }
  let js = null;
  let map = null;
  if (transpiled === null) {
    stage = "transpile";
  } else {
    const page = await toPageScript(transpiled, loader);
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
  }
  timings.transpile_bundle_ms = performance.now() - t1;

  const t2 = performance.now();
  const lintMessages = opts.eslint ? await lint(code) : [];
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
  const files = setBatch(items.map((it) => String(it.code ?? "")));
  for (let i = 0; i < items.length; i++) {
    // Fault injection for the pool's timeout/crash tests: hold this item before answering.
    if (items[i].delay_ms) await new Promise((r) => setTimeout(r, Number(items[i].delay_ms)));
    let answer;
    try {
      answer = await checkItem(files[i], String(items[i].code ?? ""), opts);
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
  send({ ready: true, pid: process.pid, versions: { typescript: ts.version, eslint: ESLint.version, esbuild: esbuild.version } });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  // One request at a time: the pool sends the next only after the last answer of this one.
  for await (const line of rl) {
    if (!line.trim()) continue;
    await handle(line);
    if (once) break;
  }
  await esbuild.stop();
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`check worker failed to start: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
