// The UI libraries a sample may import, bundled locally and offline (no network at check or render
// time). Owns what "an allowed import" means: which specifiers resolve, which names each module
// exports, and the page code that provides them.
//
// Three kinds of module:
//   page   react, react-dom (+ /client, react/jsx-runtime): in the page's vendor bundle.
//   icons  lucide-react, react-icons/<pack>: every icon is data plus the library's own factory
//          (createLucideIcon, GenIcon). The vendor bundle holds the factories; a sample's deps
//          script defines only the icons it imports, with the library's own code for each (what a
//          tree-shaking bundler would emit). Bundling the whole packs per page would cost megabytes
//          (react-icons/gi alone is 6.6 MB minified); esbuild on each sample costs ~1 s (lucide-react
//          has ~1,900 modules).
//   chunk  recharts, framer-motion: one prebuilt IIFE bundle each (esbuild, React external), loaded
//          by a page only when its sample imports it. Built once per lockfile and cached in
//          node_modules/.bot_repro_cache.
// Older lucide names: lucide-react 1.x removed the brand icons (Github, Twitter, Facebook, Instagram,
// ...) and many 0.x aliases that code written for 0.4xx/0.5xx (the models' training data) imports.
// lucide-react-legacy (lucide-react 0.577.0, the last 0.x) is bundled too: a name 1.x lacks but
// 0.577 exports is served with 0.577's icon data through 1.x's createLucideIcon (which takes 0.x's
// (name, iconNode) form), and TypeScript samples see it declared (legacyTypes()). 1.x wins where
// both have a name; `icons` (the name -> icon map) and lucide-react/icons/<file> stay 1.x only.
// Every named import of an icon or chunk module is checked against the module's real export list,
// as a bundler would ("No matching export"); the page modules are CommonJS, so only their runtime
// checks them (the TypeScript check does too, for TypeScript samples).

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

// The packages this toolchain can provide; `allowed_imports` (task.params.checks) picks from these.
export const PROVIDABLE = ["react", "react-dom", "lucide-react", "react-icons", "recharts", "framer-motion"];
export const PAGE_MODULES = new Set(["react", "react-dom", "react-dom/client", "react/jsx-runtime", "react/jsx-dev-runtime"]);
const CHUNKS = ["recharts", "framer-motion"];
const LUCIDE_CORE = ["createLucideIcon", "Icon", "LucideProvider", "useLucideContext"];

// "react-icons/fa" -> "react-icons", "@scope/pkg/sub" -> "@scope/pkg"; relative or absolute -> null.
export function packageOf(spec) {
  if (!spec || spec.startsWith(".") || spec.startsWith("/")) return null;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

export class Libraries {
  constructor(jsDir) {
    this.jsDir = jsDir;
    this.require = createRequire(path.join(jsDir, "package.json"));
    this.nm = path.join(jsDir, "node_modules");
    this.lucideDir = path.join(this.nm, "lucide-react", "dist", "esm");
    this.legacyDir = path.join(this.nm, "lucide-react-legacy", "dist", "esm");
    this.reactIconsDir = path.join(this.nm, "react-icons");
    this._lucide = null; // export name -> icon file (absolute)
    this._lucideCanonical = null; // names of `icons` (one per icon, no aliases) -> file
    this._legacy = null; // names only 0.577 exports -> its icon file (absolute, .js)
    this._lucideNames = null; // lucideExports()
    this._lucideData = new Map(); // icon file -> __iconData object literal (JS source)
    this._packs = new Map(); // "react-icons/fa" -> Map(name -> function source)
    this._chunks = null; // name -> {js, exports: Set}
    this.packNames = new Set(fs.readdirSync(this.reactIconsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "lib" && fs.existsSync(path.join(this.reactIconsDir, d.name, "index.mjs")))
      .map((d) => d.name));
  }

  // ------------------------------------------------------------------ resolution
  // {kind: "page" | "icons" | "core" | "chunk", exports: (a Set or Map of the names) | null} for a specifier this toolchain
  // provides, or {error, rule, message}.
  resolve(spec, allowed) {
    const pkg = packageOf(spec);
    if (pkg === null) {
      return { rule: "unresolved-import", message: `cannot resolve ${JSON.stringify(spec)}: the app is a single file, so a relative import has nothing to load` };
    }
    if (!allowed.includes(pkg)) {
      return { rule: "unavailable-import", message: `cannot bundle import ${JSON.stringify(spec)}: the page provides only ${allowed.join(", ")}` };
    }
    if (PAGE_MODULES.has(spec)) return { kind: "page", exports: null };
    if (spec === "lucide-react") return { kind: "icons", exports: this.lucideExports() };
    if (spec.startsWith("lucide-react/icons/")) {
      const file = path.join(this.lucideDir, "icons", `${spec.slice("lucide-react/icons/".length)}.mjs`);
      if (fs.existsSync(file)) return { kind: "icons", exports: new Set(["default"]), file };
    }
    if (spec === "react-icons" || spec === "react-icons/lib") return { kind: "core", exports: this.reactIconsCoreExports() };
    if (spec.startsWith("react-icons/") && this.packNames.has(spec.slice("react-icons/".length))) {
      return { kind: "icons", exports: this.pack(spec) }; // a Map keyed by the icon names
    }
    if (CHUNKS.includes(spec)) return { kind: "chunk", exports: this.chunks()[spec].exports };
    return { rule: "unresolved-import", message: `cannot resolve ${JSON.stringify(spec)}: ${pkg} has no such module here` };
  }

  lucideExports() {
    if (this._lucide === null) {
      // Every icon line of the barrel: export { default as A, default as AIcon, ... } from './icons/a.mjs';
      const barrel = fs.readFileSync(path.join(this.lucideDir, "lucide-react.mjs"), "utf8");
      this._lucide = new Map();
      for (const m of barrel.matchAll(/^export \{ ([^}]*) \} from '\.\/icons\/([^']+)';$/gm)) {
        const file = path.join(this.lucideDir, "icons", m[2]);
        for (const part of m[1].split(",")) this._lucide.set(part.trim().replace(/^default as /, ""), file);
      }
      const index = fs.readFileSync(path.join(this.lucideDir, "icons", "index.mjs"), "utf8");
      this._lucideCanonical = new Map();
      for (const m of index.matchAll(/^export \{ default as (\w+) \} from '\.\/([^']+)';$/gm)) {
        this._lucideCanonical.set(m[1], path.join(this.lucideDir, "icons", m[2]));
      }
      if (this._lucide.size < 1000 || this._lucideCanonical.size < 1000) {
        throw new Error(`lucide-react's barrel files changed shape (${this._lucide.size} exports found); update js/libs.mjs`);
      }
      const legacy = fs.readFileSync(path.join(this.legacyDir, "lucide-react.js"), "utf8");
      this._legacy = new Map();
      for (const m of legacy.matchAll(/^export \{ ([^}]*) \} from '\.\/icons\/([^']+)';$/gm)) {
        for (const part of m[1].split(",")) {
          const name = part.trim().replace(/^default as /, "");
          if (!this._lucide.has(name)) this._legacy.set(name, path.join(this.legacyDir, "icons", m[2]));
        }
      }
      if (!this._legacy.has("Github")) throw new Error("lucide-react-legacy has no Github icon; update js/libs.mjs");
      for (const [name, file] of this._legacy) this._lucide.set(name, file);
    }
    // Built once: resolve() asks for it on every lucide import, and the set has ~4,000 names.
    this._lucideNames ??= new Set([...this._lucide.keys(), ...LUCIDE_CORE, "icons"]);
    return this._lucideNames;
  }

  // The names served from lucide-react-legacy.
  legacyNames() {
    this.lucideExports();
    return [...this._legacy.keys()];
  }

  // A TypeScript module augmentation declaring the legacy names (typed as any 1.x icon).
  legacyTypes() {
    const names = this.legacyNames().map((n) => `  export const ${n}: typeof Sun;`);
    return ['import { Sun } from "lucide-react";', 'declare module "lucide-react" {', ...names, "}", ""].join("\n");
  }

  // The arguments of createLucideIcon for the icon in `file` (JS source): 1.x's icon data object,
  // or for a 0.577 file its ("name", iconNode).
  lucideIconData(file) {
    if (!this._lucideData.has(file) && file.startsWith(this.legacyDir)) {
      const text = fs.readFileSync(file, "utf8");
      const node = text.match(/^const __iconNode = (\[[\s\S]*?\n\]);$/m);
      const name = text.match(/= createLucideIcon\(("[^"]+"), __iconNode\);$/m);
      if (!node || !name) throw new Error(`cannot read the icon data of ${file}; update js/libs.mjs`);
      this._lucideData.set(file, `${name[1]}, ${node[1]}`);
    }
    if (!this._lucideData.has(file)) {
      let text = fs.readFileSync(file, "utf8");
      // An alias file re-exports another icon: export { default } from './other.mjs';
      const alias = text.match(/^export \{ default \} from '\.\/([^']+)';$/m);
      if (alias) return this.lucideIconData(path.join(path.dirname(file), alias[1]));
      const m = text.match(/^const __iconData = (\{[\s\S]*?\n\});$/m);
      if (!m) throw new Error(`cannot read the icon data of ${file}; update js/libs.mjs`);
      text = m[1];
      this._lucideData.set(file, text);
    }
    return this._lucideData.get(file);
  }

  // The icon functions of a react-icons pack, name -> source (`function FaBeer (props) {...}`).
  pack(spec) {
    if (!this._packs.has(spec)) {
      const file = path.join(this.reactIconsDir, spec.slice("react-icons/".length), "index.mjs");
      const icons = new Map();
      const text = fs.readFileSync(file, "utf8");
      for (const m of text.matchAll(/^export function (\w+) \(props\) \{\n  return GenIcon\((.*)\)\(props\);\n\};$/gm)) {
        icons.set(m[1], `function ${m[1]} (props) { return GenIcon(${m[2]})(props); }`);
      }
      const declared = (text.match(/^export function /gm) || []).length;
      if (declared !== icons.size) throw new Error(`${file}: read ${icons.size} of ${declared} icons; update js/libs.mjs`);
      this._packs.set(spec, icons);
    }
    return this._packs.get(spec);
  }

  reactIconsCoreExports() {
    return new Set(["GenIcon", "IconBase", "IconContext", "DefaultContext", "IconsManifest"]);
  }

  // ------------------------------------------------------------------ page code
  // Extra vendor-bundle source: the icon libraries' factories, as window.__botLibs.
  vendorEntry() {
    const lucide = (f) => JSON.stringify(path.join(this.lucideDir, f));
    return [
      `import createLucideIcon from ${lucide("createLucideIcon.mjs")};`,
      `import LucideIconBase from ${lucide("Icon.mjs")};`,
      `import { LucideProvider, useLucideContext } from ${lucide("context.mjs")};`,
      'import * as ReactIconsLib from "react-icons/lib";',
      "window.__botLibs = { lucide: { createLucideIcon, Icon: LucideIconBase, LucideProvider, useLucideContext }, reactIcons: ReactIconsLib };",
      'window.__botDeps["react-icons"] = ReactIconsLib; window.__botDeps["react-icons/lib"] = ReactIconsLib;',
    ].join("\n");
  }

  // The sample's deps script: the icons it imports. `uses`: Map spec -> {names: Set, all: bool}.
  depsScript(uses) {
    const out = [];
    for (const [spec, use] of uses) {
      if (spec === "lucide-react") {
        this.lucideExports();
        const body = [];
        const names = use.all ? [...this._lucide.keys()] : [...use.names].filter((n) => this._lucide.has(n));
        for (const n of names) body.push(`m[${JSON.stringify(n)}]=C(${this.lucideIconData(this._lucide.get(n))});`);
        if (use.all || use.names.has("icons")) {
          body.push("m.icons={};");
          for (const [n, file] of this._lucideCanonical) body.push(`m.icons[${JSON.stringify(n)}]=C(${this.lucideIconData(file)});`);
        }
        out.push(`(function(){var L=window.__botLibs.lucide,C=L.createLucideIcon,m=Object.assign({},L);${body.join("\n")}\nwindow.__botDeps["lucide-react"]=m;})();`);
      } else if (spec.startsWith("lucide-react/icons/")) {
        const file = path.join(this.lucideDir, "icons", `${spec.slice("lucide-react/icons/".length)}.mjs`);
        out.push(`window.__botDeps[${JSON.stringify(spec)}]={__esModule:true,default:window.__botLibs.lucide.createLucideIcon(${this.lucideIconData(file)})};`);
      } else if (spec.startsWith("react-icons/") && this.packNames.has(spec.slice("react-icons/".length))) {
        const icons = this.pack(spec);
        const names = use.all ? [...icons.keys()] : [...use.names].filter((n) => icons.has(n));
        const body = names.map((n) => `m[${JSON.stringify(n)}]=${icons.get(n)};`);
        out.push(`(function(){var GenIcon=window.__botLibs.reactIcons.GenIcon,m={};${body.join("\n")}\nwindow.__botDeps[${JSON.stringify(spec)}]=m;})();`);
      }
    }
    return out.join("\n");
  }

  // ------------------------------------------------------------------ chunks
  chunks() {
    if (this._chunks === null) throw new Error("Libraries.buildChunks() must run first");
    return this._chunks;
  }

  // Build (or read from the cache) the prebuilt bundles of the chunk libraries.
  async buildChunks(esbuild, pagePlugin) {
    if (this._chunks !== null) return this._chunks;
    const lock = fs.readFileSync(path.join(this.jsDir, "package-lock.json"));
    const self = fs.readFileSync(new URL(import.meta.url));
    const key = crypto.createHash("sha256").update(lock).update(self).update(esbuild.version).digest("hex").slice(0, 16);
    const cacheDir = path.join(this.nm, ".bot_repro_cache");
    const cacheFile = path.join(cacheDir, `chunks-${key}.json`);
    let cached = null;
    try {
      cached = JSON.parse(fs.readFileSync(cacheFile, "utf8"));
    } catch {
      cached = null;
    }
    if (cached === null) {
      cached = {};
      for (const name of CHUNKS) {
        const common = {
          bundle: true, write: false, target: "es2020", logLevel: "silent", plugins: [pagePlugin],
          define: { "process.env.NODE_ENV": '"production"' }, absWorkingDir: this.jsDir,
        };
        const js = await esbuild.build({
          ...common, minify: true, format: "iife",
          stdin: { contents: `import * as M from ${JSON.stringify(name)}; window.__botDeps[${JSON.stringify(name)}] = M;`, resolveDir: this.jsDir, loader: "js" },
        });
        // The export list, as a bundler sees it: an ES module re-exporting the library.
        const meta = await esbuild.build({
          ...common, format: "esm", metafile: true, outfile: "exports.js",
          stdin: { contents: `export * from ${JSON.stringify(name)};`, resolveDir: this.jsDir, loader: "js" },
        });
        const exports = Object.values(meta.metafile.outputs)[0].exports;
        cached[name] = { js: js.outputFiles[0].text, exports };
      }
      fs.mkdirSync(cacheDir, { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(cached));
      fs.renameSync(tmp, cacheFile); // atomic: parallel workers may build at once
    }
    this._chunks = Object.fromEntries(Object.entries(cached).map(([k, v]) => [k, { js: v.js, exports: new Set(v.exports) }]));
    return this._chunks;
  }
}
