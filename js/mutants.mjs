// Systematic mutants of a valid React component, one per fault kind, each with the line its fault
// is on (bot_repro/tasks/react/mutants.py drives this; tests and bench/react.py use them).
//
// stdin: JSON [{"code", "lang": "tsx" | "jsx"}]; stdout: JSON, per input a list of
//   {"kind", "code", "line", "inserted_line"} or {"kind", "skipped": why}
// line: 0-indexed line of the fault in the mutant. inserted_line: the mutant line that was added
// (later lines moved down by one), null when the mutant keeps the original's lines.
// Kinds (the stage each must fail at, or not):
//   unclosed_tag          a one-line self-closing element loses its "/" (<Icon /> -> <Icon >): transpile
//   mismatched_tag        a closing tag is renamed (</div> -> </span>, </X> -> </div>): transpile
//   unterminated_string   a string literal (not a JSX attribute) loses its closing quote: transpile
//   missing_import        an import of a local module that does not exist, after the imports: bundle
//   missing_export        the default export goes (export default function App -> function App;
//                         export default App; -> export { App };): bundle or render
//   runtime_throw         the default-exported component throws before it returns: render
//   type_error            (TypeScript only) a string assigned to a number, before the return: compiles,
//                         with a TypeScript penalty on its line
// Sites are chosen deterministically (the candidate nearest the middle of the file).

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const ts = require("typescript");

export const KINDS = ["unclosed_tag", "mismatched_tag", "unterminated_string", "missing_import", "missing_export", "runtime_throw", "type_error"];

function middle(cands, lineCount) {
  if (!cands.length) return null;
  const mid = lineCount / 2;
  return cands.reduce((best, c) => (Math.abs(c.line - mid) < Math.abs(best.line - mid) ? c : best));
}

function replaceRange(code, start, end, text) {
  return code.slice(0, start) + text + code.slice(end);
}

function insertLine(lines, at, text) {
  return [...lines.slice(0, at), text, ...lines.slice(at)].join("\n");
}

// The default-exported component's function node, and how it is exported.
function defaultComponent(sf) {
  const fns = new Map();
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) && st.name) fns.set(st.name.text, st);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) {
          fns.set(d.name.text, d.initializer);
        }
      }
    }
  }
  for (const st of sf.statements) {
    const mods = ts.canHaveModifiers(st) ? ts.getModifiers(st) || [] : [];
    if (ts.isFunctionDeclaration(st) && mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) {
      return { fn: st, inline: st, name: st.name ? st.name.text : null };
    }
    if (ts.isExportAssignment(st) && !st.isExportEquals) {
      const name = ts.isIdentifier(st.expression) ? st.expression.text : null;
      return { fn: name ? fns.get(name) || null : null, assignment: st, name };
    }
  }
  return null;
}

function mutate(code, lang) {
  const sf = ts.createSourceFile(lang === "jsx" ? "App.jsx" : "App.tsx", code, ts.ScriptTarget.ES2022, true,
    lang === "jsx" ? ts.ScriptKind.JSX : ts.ScriptKind.TSX);
  const lines = code.split("\n");
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line;
  const selfClosing = [];
  const closing = [];
  const strings = [];
  const visit = (node) => {
    if (ts.isJsxSelfClosingElement(node) && lineOf(node.getStart(sf)) === lineOf(node.end)) {
      selfClosing.push({ node, line: lineOf(node.getStart(sf)) });
    }
    if (ts.isJsxClosingElement(node) && ts.isIdentifier(node.tagName)) closing.push({ node, line: lineOf(node.getStart(sf)) });
    if (ts.isStringLiteral(node) && !ts.isJsxAttribute(node.parent) && !ts.isImportDeclaration(node.parent)
      && !ts.isExportDeclaration(node.parent) && !ts.isExternalModuleReference(node.parent) && !ts.isLiteralTypeNode(node.parent)) {
      const start = node.getStart(sf);
      const line = lineOf(start);
      const quote = code[start];
      const rest = lines[line].slice(sf.getLineAndCharacterOfPosition(node.end).character);
      // The closing quote must be the line's last of its kind, so nothing after it pairs up again.
      if (lineOf(node.end) === line && !rest.includes(quote) && !rest.includes("`")) strings.push({ node, line, quote });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const n = lines.length;
  const out = [];
  const skip = (kind, why) => out.push({ kind, skipped: why });

  const sc = middle(selfClosing, n);
  if (sc) {
    const end = sc.node.end; // "/>" are the last two characters
    out.push({ kind: "unclosed_tag", code: replaceRange(code, end - 2, end, ">"), line: sc.line, inserted_line: null });
  } else skip("unclosed_tag", "no one-line self-closing element");

  const cl = middle(closing, n);
  if (cl) {
    const tag = cl.node.tagName.text;
    const other = tag === "div" ? "span" : "div";
    out.push({ kind: "mismatched_tag", code: replaceRange(code, cl.node.tagName.getStart(sf), cl.node.tagName.end, other), line: cl.line, inserted_line: null });
  } else skip("mismatched_tag", "no closing tag");

  const st = middle(strings, n);
  if (st) {
    out.push({ kind: "unterminated_string", code: replaceRange(code, st.node.end - 1, st.node.end, ""), line: st.line, inserted_line: null });
  } else skip("unterminated_string", "no string literal outside JSX attributes");

  const imports = sf.statements.filter((s) => ts.isImportDeclaration(s));
  const at = imports.length ? lineOf(imports[imports.length - 1].end) + 1 : (lines[0].startsWith("//") ? 1 : 0);
  out.push({ kind: "missing_import", code: insertLine(lines, at, 'import { formatValue } from "./utils/format";'), line: at, inserted_line: at });

  const comp = defaultComponent(sf);
  if (comp && comp.inline) {
    const mods = ts.getModifiers(comp.inline);
    const start = mods[0].getStart(sf);
    const end = mods[mods.length - 1].end;
    out.push({ kind: "missing_export", code: replaceRange(code, start, end + 1, ""), line: lineOf(start), inserted_line: null });
  } else if (comp && comp.assignment && comp.name) {
    const a = comp.assignment;
    out.push({ kind: "missing_export", code: replaceRange(code, a.getStart(sf), a.end, `export { ${comp.name} };`), line: lineOf(a.getStart(sf)), inserted_line: null });
  } else skip("missing_export", "no `export default` of a named component");

  const body = comp && comp.fn && comp.fn.body && ts.isBlock(comp.fn.body) ? comp.fn.body : null;
  const ret = body ? [...body.statements].reverse().find((s) => ts.isReturnStatement(s)) : null;
  if (ret) {
    const line = lineOf(ret.getStart(sf));
    const indent = lines[line].match(/^\s*/)[0];
    out.push({ kind: "runtime_throw", code: insertLine(lines, line, `${indent}if (Date.now() > 0) throw new Error("mutant: render failed");`), line, inserted_line: line });
    if (lang !== "jsx") {
      out.push({ kind: "type_error", code: insertLine(lines, line, `${indent}const mutantTotal: number = "0";`), line, inserted_line: line });
    }
  } else {
    skip("runtime_throw", "the default-exported component has no block body ending in return");
    if (lang !== "jsx") skip("type_error", "the default-exported component has no block body ending in return");
  }
  return out;
}

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const items = JSON.parse(input);
  process.stdout.write(JSON.stringify(items.map((it) => mutate(String(it.code), it.lang === "jsx" ? "jsx" : "tsx"))));
}

main().catch((err) => {
  process.stderr.write(`mutants: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
