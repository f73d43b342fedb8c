// TypeScript diagnostics for a batch of samples, from TypeScript 7 (the native compiler) through
// its sync API (`typescript-native` = typescript@7.0.2, pinned exactly: the API is "unstable").
//
// Why TypeScript 7: checking JSX against React's types costs ~27 ms per sample in TypeScript 5.9's
// language service even with a shared program; the native checker does the same in ~3 ms. One
// tsgo server runs per check worker and keeps lib.dom.d.ts and @types/react parsed between
// batches: each batch only swaps the contents of the sample files (served from memory through the
// API's virtual file system callbacks) and asks for a new snapshot.
// (TypeScript 5.9 stays installed as `typescript`: typescript-eslint and the AST checks use it.)

import path from "node:path";
import { createRequire } from "node:module";
import { API } from "typescript-native/unstable/sync";

export const TS_NATIVE_VERSION = createRequire(import.meta.url)("typescript-native/package.json").version;

const ERROR = 1; // DiagnosticCategory.Error

// The compiler options as tsconfig JSON. Lenient on style (implicit any, nulls): only real type
// errors count against a sample. Every sample is its own module (moduleDetection: force), so
// samples of one batch never share top-level names.
const COMPILER_OPTIONS = {
  jsx: "react-jsx",
  target: "ES2022",
  module: "ESNext",
  moduleResolution: "bundler",
  moduleDetection: "force",
  lib: ["ES2022", "DOM", "DOM.Iterable"],
  strict: false,
  skipLibCheck: true,
  noEmit: true,
  isolatedModules: true,
  esModuleInterop: true,
  allowSyntheticDefaultImports: true,
  types: [],
};
const EMPTY_MODULE = "export {};\n";

function flatten(diagnostic, indent = "") {
  const chain = (diagnostic.messageChain || []).map((d) => flatten(d, indent + "  "));
  return [indent + diagnostic.text, ...chain].join("\n");
}

export class BatchTypeChecker {
  // `dir` holds the virtual files; it must sit inside js/ so `react` resolves to js/node_modules.
  // `declarations`: file name -> content of .d.ts files every sample sees (e.g. legacy icon names).
  constructor(dir, declarations = {}) {
    this.dir = dir;
    this.configPath = path.join(dir, "tsconfig.json");
    this.files = new Map(); // slot path -> current code; slots are reused batch after batch
    this.declarations = new Map(Object.entries(declarations).map(([name, text]) => [path.join(dir, name), text]));
    this.capacity = 0;
    this.project = null;
    const inDir = (f) => path.dirname(f) === this.dir;
    this.api = new API({
      cwd: path.dirname(dir),
      fs: {
        // null: "no such file" (no fallback to the disk); undefined: read the real file system.
        readFile: (f) => (f === this.configPath ? this.config() : inDir(f) ? this.files.get(f) ?? this.declarations.get(f) ?? null : undefined),
        fileExists: (f) => (inDir(f) ? f === this.configPath || this.files.has(f) || this.declarations.has(f) : undefined),
        directoryExists: (d) => (d === this.dir ? true : undefined),
      },
    });
  }

  config() {
    return JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files: [...this.declarations.keys(), ...this.files.keys()] });
  }

  // Load `codes` into the first slots (growing the slot list when needed) and empty the rest; a
  // null code leaves its slot empty (a sample that is not type-checked). Returns the slot paths of
  // the batch, in order.
  setBatch(codes) {
    const changed = [];
    if (codes.length > this.capacity) {
      // Doubling keeps the config (and so the project) stable across batches of similar sizes.
      this.capacity = Math.max(codes.length, 2 * this.capacity, 8);
      for (let i = this.files.size; i < this.capacity; i++) this.files.set(path.join(this.dir, `sample${i}.tsx`), EMPTY_MODULE);
      changed.push(this.configPath);
    }
    const slots = [...this.files.keys()];
    slots.forEach((slot, i) => {
      const code = i < codes.length && codes[i] !== null ? codes[i] : EMPTY_MODULE;
      if (this.files.get(slot) !== code) changed.push(slot);
      this.files.set(slot, code);
    });
    const first = this.project === null;
    const snapshot = first
      ? this.api.updateSnapshot({ openProjects: [this.configPath] })
      : this.api.updateSnapshot({ fileChanges: { changed } });
    this.project = snapshot.getProject(this.configPath);
    if (!this.project) throw new Error(`TypeScript 7 did not load the project ${this.configPath}`);
    if (first) {
      // A compiler option that a TypeScript upgrade renamed or removed must stop the worker, not
      // quietly change what counts as a type error.
      const program = this.project.program;
      const problems = [...program.getConfigFileParsingDiagnostics(), ...program.getProgramDiagnostics()];
      if (problems.length) throw new Error(`TypeScript ${TS_NATIVE_VERSION} rejects the compiler options: ${problems.map((d) => d.text).join("; ")}`);
    }
    return slots.slice(0, codes.length);
  }

  // Type errors of one slot (its syntax was checked before), each as {start, end, code, message};
  // start/end are UTF-16 offsets into the sample's code.
  typeErrors(slot) {
    return this.project.program.getSemanticDiagnostics(slot).filter((d) => d.category === ERROR)
      .map((d) => ({ start: d.pos, end: d.end, code: d.code, message: flatten(d) }));
  }

  close() {
    this.api.close();
  }
}
