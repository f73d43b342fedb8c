// The bundle checks of one sample (docs/method.md §4): every import must be one the page can
// satisfy (js/libs.mjs resolves them; a missing name is reported on its own line) and the module
// must have a default export (the component the page renders). Works on syntax.mjs's tree.

import { diag, ts } from "./syntax.mjs";

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
export function bundleImports(sourceFile, allowed, libs) {
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
export function missingDefaultExport(sourceFile) {
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
