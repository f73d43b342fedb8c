// The page's vendor files, built once per checker: React, ReactDOM, the mount helper and the icon
// libraries' factories in one esbuild bundle, Tailwind's browser build, and the prebuilt library
// chunks (js/libs.mjs). pagePlugin makes every bundled library use the page's single React.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { PAGE_MODULES } from "./libs.mjs";
import { esbuild } from "./transpile.mjs";

const JS_DIR = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// esbuild plugin: the page's own modules come from window.__botDeps, so every library shares the
// page's single React.
export const pagePlugin = {
  name: "page-modules",
  setup(build) {
    build.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, (a) => (PAGE_MODULES.has(a.path) ? { path: a.path, namespace: "page" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "page" }, (a) => ({ contents: `module.exports = window.__botDeps[${JSON.stringify(a.path)}];`, loader: "js" }));
  },
};

export async function vendor(libs) {
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
