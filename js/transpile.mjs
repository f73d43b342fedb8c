// The page script of one sample: esbuild (the default) or Babel (the paper's) turns the TSX/JSX into
// a CommonJS module wrapped for the page, with a source map back to the sample's lines; a sample
// neither can transpile gets the transpiler's parse error as a diagnostic.

import { createRequire } from "node:module";
import { diag } from "./syntax.mjs";

const require = createRequire(import.meta.url);
const babel = require("@babel/core");
const presetTs = require("@babel/preset-typescript");
const presetReact = require("@babel/preset-react");
const commonjs = require("@babel/plugin-transform-modules-commonjs");
export const esbuild = require("esbuild");

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

export function babelPage(code) {
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

export async function esbuildPage(code) {
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
