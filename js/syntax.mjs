// Syntax and language of one sample, with TypeScript 5.9's parser (it parses JSX and JavaScript
// too): its syntax errors, whether it uses type syntax (a TypeScript sample is type-checked), and
// after a parse error the one report that names the fault best (primaryParseError). Every module of
// the check worker makes its diagnostics with diag().

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const ts = require("typescript"); // 5.9: the parser (syntax errors, AST for the bundle checks)

// A diagnostic; line and col are 0-indexed (reason strings, made in Python, say 1-based lines).
export function diag(line, col, source, rule, message, severity = "error") {
  return { line, col, severity, source, rule, message };
}

export function parse(code) {
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
export function hasTypeSyntax(sourceFile) {
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

export function primaryParseError(tsSyntax, transpile, code, sourceFile) {
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
