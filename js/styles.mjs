// Tailwind CSS for one sample, compiled in the check worker (the default, `tailwind: "static"`):
// Tailwind's own scanner (@tailwindcss/oxide) finds the class candidates in the sample's source and
// Tailwind's compiler (tailwindcss, the same version as the page's @tailwindcss/browser) builds
// the stylesheet the page links, so the browser runs no CSS compiler. This is what a Tailwind
// build does (classes come from the source text); the browser build (`tailwind: "browser"`) also
// sees class names assembled at run time, at about 0.25 s of CPU per rendered page.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { compile } = require("tailwindcss");
const { Scanner } = require("@tailwindcss/oxide");

export const TAILWIND_VERSION = require("tailwindcss/package.json").version;
const TW_DIR = path.dirname(require.resolve("tailwindcss/package.json"));
const files = new Map();

async function loadStylesheet(id, base) {
  let file;
  if (id === "tailwindcss") file = path.join(TW_DIR, "index.css");
  else if (id.startsWith("tailwindcss/")) file = path.join(TW_DIR, id.slice("tailwindcss/".length));
  else file = path.resolve(base, id);
  if (!file.startsWith(TW_DIR)) throw new Error(`stylesheet ${id} is outside tailwindcss`);
  if (!files.has(file)) files.set(file, fs.readFileSync(file, "utf8"));
  return { path: file, base: path.dirname(file), content: files.get(file) };
}

// A fresh scanner and compiler per sample: both remember what they saw before and would give later
// samples only their new classes (the scanner) or everyone's (the compiler).
export async function tailwindCss(code) {
  const candidates = new Scanner({}).scanFiles([{ content: code, extension: "tsx" }]);
  const compiler = await compile('@import "tailwindcss";', { base: TW_DIR, loadStylesheet });
  return compiler.build(candidates);
}
