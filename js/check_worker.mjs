// Persistent check worker for bot_repro's React task.
//
// Owns the Node side of "does this single-file React + TypeScript app compile": TypeScript
// diagnostics (syntax and types, via a language service over an in-memory file), Babel
// transpilation, esbuild bundling against locally installed React/ReactDOM, and ESLint 9 (React
// and hooks rules). It speaks JSON lines: stdin gets one request per line, stdout gets one
// answer per line (everything else a library prints goes to stderr). The first stdout line is
// {"ready": true, ...} once every tool is loaded, so the Python pool can time requests fairly.
//
// Requests:
//   {"id", "op": "check", "code", "typecheck": true, "eslint": true, "transpiler": "babel"|"esbuild",
//    "delay_ms": 0}
//   {"id", "op": "vendor"}  -> {"vendor_js", "tailwind_js"}: the page's local React and Tailwind
// All line numbers in answers are 0-indexed lines of the code that was sent.
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
const reactPlugin = require("eslint-plugin-react");
const hooksPlugin = require("eslint-plugin-react-hooks");
const globals = require("globals");

// The app lives at a virtual path inside js/ so module resolution finds js/node_modules.
const APP = path.join(JS_DIR, "__virtual__", "App.tsx");
// Modules the page provides (window.__botDeps, filled by the vendor bundle).
const PAGE_MODULES = ["react", "react-dom", "react-dom/client", "react/jsx-runtime", "react/jsx-dev-runtime"];

// ---------------------------------------------------------------- TypeScript
const compilerOptions = {
  jsx: ts.JsxEmit.ReactJSX,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
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
let appText = "";
let appVersion = 0;
const snapshots = new Map();
const tsHost = {
  getCompilationSettings: () => compilerOptions,
  getScriptFileNames: () => [APP],
  getScriptVersion: (f) => (f === APP ? String(appVersion) : "0"),
  getScriptSnapshot: (f) => {
    if (f === APP) return ts.ScriptSnapshot.fromString(appText);
    if (!snapshots.has(f)) {
      const text = ts.sys.readFile(f);
      snapshots.set(f, text === undefined ? undefined : ts.ScriptSnapshot.fromString(text));
    }
    return snapshots.get(f);
  },
  getCurrentDirectory: () => JS_DIR,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => f === APP || ts.sys.fileExists(f),
  readFile: (f, enc) => (f === APP ? appText : ts.sys.readFile(f, enc)),
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const languageService = ts.createLanguageService(tsHost, ts.createDocumentRegistry());

function tsDiagnostics(code, withTypes) {
  appText = code;
  appVersion += 1;
  const syntactic = languageService.getSyntacticDiagnostics(APP);
  // Type-checking broken syntax only adds cascades; the syntax errors already locate the fault.
  const semantic = withTypes && syntactic.length === 0 ? languageService.getSemanticDiagnostics(APP) : [];
  const sourceFile = languageService.getProgram().getSourceFile(APP);
  const out = [];
  for (const d of [...syntactic, ...semantic]) {
    if (d.category !== ts.DiagnosticCategory.Error) continue;
    const pos = d.start === undefined ? { line: 0, character: 0 } : sourceFile.getLineAndCharacterOfPosition(d.start);
    out.push({
      line: pos.line,
      col: pos.character,
      severity: "error",
      source: "tsc",
      rule: `TS${d.code}`,
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    });
  }
  return { diagnostics: out, sourceFile, syntaxOk: syntactic.length === 0 };
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
    const exported = mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return null;
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
  return {
    line,
    col: 0,
    severity: "error",
    source: "export",
    rule: "missing-default-export",
    message: "the module has no default export; the page renders the default-exported component",
  };
}

// ---------------------------------------------------------------- Babel + esbuild
function babelTranspile(code) {
  try {
    const out = babel.transformSync(code, {
      filename: "App.tsx",
      babelrc: false,
      configFile: false,
      sourceType: "module",
      // Keeps output lines equal to input lines so bundle positions map back to the sample.
      retainLines: true,
      presets: [
        [presetTs, { isTSX: true, allExtensions: true }],
        [presetReact, { runtime: "automatic" }],
      ],
    });
    return { code: out.code, diagnostics: [] };
  } catch (err) {
    const loc = err.loc || { line: 1, column: 0 };
    const message = String(err.reasonCode ? err.message.split("\n")[0] : err.message).replace(/^[^:]*App\.tsx: /, "");
    return {
      code: null,
      diagnostics: [
        { line: loc.line - 1, col: loc.column, severity: "error", source: "babel", rule: err.reasonCode || err.code || "BabelError", message },
      ],
    };
  }
}

const depsPlugin = {
  name: "bot-page-modules",
  setup(build) {
    const filter = new RegExp(`^(${PAGE_MODULES.map((m) => m.replace(/[/-]/g, "\\$&")).join("|")})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "page" }));
    build.onLoad({ filter: /.*/, namespace: "page" }, (args) => ({
      contents: `module.exports = window.__botDeps[${JSON.stringify(args.path)}];`,
      loader: "js",
    }));
  },
};

function userPlugin(contents, loader) {
  return {
    name: "bot-user-app",
    setup(build) {
      build.onResolve({ filter: /^bot:app$/ }, () => ({ path: "App.tsx", namespace: "user" }));
      build.onLoad({ filter: /.*/, namespace: "user" }, () => ({ contents, loader, resolveDir: JS_DIR }));
    },
  };
}

const ENTRY = [
  'import App from "bot:app";',
  'import { createElement } from "react";',
  'import { createRoot } from "react-dom/client";',
  'createRoot(document.getElementById("root")).render(createElement(App));',
].join("\n");

async function bundle(contents, loader) {
  try {
    const result = await esbuild.build({
      stdin: { contents: ENTRY, resolveDir: JS_DIR, sourcefile: "entry.js", loader: "js" },
      bundle: true,
      write: false,
      format: "iife",
      target: "es2020",
      outfile: "app.js",
      sourcemap: "external",
      jsx: "automatic",
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
      plugins: [depsPlugin, userPlugin(contents, loader)],
    });
    const js = result.outputFiles.find((f) => f.path.endsWith(".js"));
    const map = result.outputFiles.find((f) => f.path.endsWith(".map"));
    return { js: js.text, map: map ? map.text : null, diagnostics: [] };
  } catch (err) {
    const diagnostics = (err.errors || [{ text: String(err) }]).map((e) => {
      const inUser = e.location && e.location.namespace === "user";
      return {
        // Errors outside the sample (entry glue) have no sample line.
        line: inUser ? e.location.line - 1 : null,
        col: inUser ? e.location.column : 0,
        severity: "error",
        source: "esbuild",
        rule: "bundle",
        message: e.text,
      };
    });
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
      plugins: { react: reactPlugin, "react-hooks": hooksPlugin },
      settings: { react: { version: "19.0" } },
      rules: {
        ...eslintJs.configs.recommended.rules,
        ...reactPlugin.configs.flat.recommended.rules,
        ...reactPlugin.configs.flat["jsx-runtime"].rules,
        // TypeScript already resolves names and checks props; these two misfire on TSX.
        "no-undef": "off",
        "react/prop-types": "off",
        // Unused names are untidy, not wrong.
        "no-unused-vars": "warn",
        "react-hooks/rules-of-hooks": "error",
        "react-hooks/exhaustive-deps": "warn",
      },
    },
  ],
});

async function lint(code) {
  const [result] = await eslint.lintText(code, { filePath: APP });
  return result.messages.map((m) => ({
    line: Math.max(0, (m.line || 1) - 1),
    col: Math.max(0, (m.column || 1) - 1),
    severity: m.fatal ? "fatal" : m.severity === 2 ? "error" : "warning",
    source: "eslint",
    rule: m.ruleId || (m.fatal ? "parse" : "eslint"),
    message: m.message,
  }));
}

// ---------------------------------------------------------------- requests
async function check(req) {
  const t0 = performance.now();
  const code = String(req.code ?? "");
  const typecheck = req.typecheck !== false;
  const timings = {};
  const ts0 = performance.now();
  const tsResult = tsDiagnostics(code, typecheck);
  timings.tsc_ms = performance.now() - ts0;
  const diagnostics = [...tsResult.diagnostics];
  let stage = null;
  if (typecheck && tsResult.diagnostics.length) stage = "typecheck";

  const tr0 = performance.now();
  const transpiler = req.transpiler === "esbuild" ? "esbuild" : "babel";
  let transpiled = code;
  let loader = "tsx";
  if (transpiler === "babel") {
    const b = babelTranspile(code);
    diagnostics.push(...b.diagnostics);
    transpiled = b.code;
    loader = "js";
    if (b.code === null) stage = "transpile";
  }
  timings.transpile_ms = performance.now() - tr0;

  let js = null;
  let map = null;
  if (transpiled !== null) {
    const noDefault = tsResult.syntaxOk ? missingDefaultExport(tsResult.sourceFile) : null;
    if (noDefault) {
      diagnostics.push(noDefault);
      stage = stage || "bundle";
    } else {
      const b0 = performance.now();
      const b = await bundle(transpiled, loader);
      timings.bundle_ms = performance.now() - b0;
      diagnostics.push(...b.diagnostics);
      if (b.js === null) stage = stage || (transpiler === "esbuild" ? "transpile" : "bundle");
      else if (stage === null) ({ js, map } = b);
    }
  }
  const l0 = performance.now();
  const lintMessages = req.eslint === false ? [] : await lint(code);
  timings.eslint_ms = performance.now() - l0;
  timings.total_ms = performance.now() - t0;
  return { ok: stage === null, stage, diagnostics, eslint: lintMessages, bundle: js, sourcemap: map, timings };
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

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    return { id: null, error: `bad request line: ${err.message}` };
  }
  try {
    // Fault injection for the pool's timeout/crash tests and the benchmark.
    if (req.delay_ms) await new Promise((r) => setTimeout(r, Number(req.delay_ms)));
    if (req.op === "vendor") return { id: req.id, ...(await vendor()) };
    if (req.op === "check") return { id: req.id, ...(await check(req)) };
    return { id: req.id, error: `unknown op ${JSON.stringify(req.op)}; valid ops: check, vendor` };
  } catch (err) {
    return { id: req.id, error: `worker error: ${err && err.stack ? err.stack : String(err)}` };
  }
}

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function main() {
  const once = process.argv.includes("--once");
  // Warm every tool once so the first real sample is not charged for lazy loading.
  await check({ code: "export default function App() { return <div className=\"p-2\">ok</div>; }" });
  send({ ready: true, pid: process.pid, versions: { typescript: ts.version, eslint: ESLint.version, esbuild: esbuild.version } });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  // One request at a time: the pool sends the next only after this answer.
  for await (const line of rl) {
    if (!line.trim()) continue;
    send(await handle(line));
    if (once) break;
  }
  await esbuild.stop();
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`check worker failed to start: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
