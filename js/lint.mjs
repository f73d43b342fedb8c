// ESLint 9 with the recommended core rules, React's and the hooks rules, for one sample's code
// (`linter=eslint`, the paper's toolchain; oxlint.mjs runs the same rules faster).
//
// Uses the Linter class with a config built per call: the browser globals are passed only where
// the code names them. Declaring all ~1,200 of them on every file doubled the lint time (the
// unused-vars rules walk every global-scope variable), and a global the code never names cannot
// change a report, so the findings are the same as with the full set.

import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { Linter } = require("eslint");
const eslintJs = require("@eslint/js");
const tsParser = require("@typescript-eslint/parser");
const tsPlugin = require("@typescript-eslint/eslint-plugin");
const reactPlugin = require("eslint-plugin-react");
const hooksPlugin = require("eslint-plugin-react-hooks");
const globals = require("globals");

// The rule set (its one home; oxlint.mjs maps it onto oxlint's rules).
export const RULES = {
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
};
const PLUGINS = { react: reactPlugin, "react-hooks": hooksPlugin, "@typescript-eslint": tsPlugin };
const PARSER_OPTIONS = { ecmaFeatures: { jsx: true }, ecmaVersion: "latest", sourceType: "module" };
const BROWSER = Object.entries(globals.browser);
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

export const ESLINT_VERSION = Linter.version;

export function makeLinter(dir) {
  const linter = new Linter({ cwd: dir });
  const filename = path.join(dir, "App.tsx");
  // Diagnostics as {line, col (0-indexed), severity ("fatal" | "error" | "warning"), source, rule, message}.
  return (code) => {
    const names = new Set(code.match(IDENTIFIER));
    const config = [{
      files: ["**/*.tsx"],
      languageOptions: {
        parser: tsParser,
        parserOptions: PARSER_OPTIONS,
        globals: Object.fromEntries(BROWSER.filter(([name]) => names.has(name))),
      },
      plugins: PLUGINS,
      settings: { react: { version: "19.0" } },
      rules: RULES,
    }];
    return linter.verify(code, config, filename).map((m) => ({
      line: Math.max(0, (m.line || 1) - 1),
      col: Math.max(0, (m.column || 1) - 1),
      severity: m.fatal ? "fatal" : m.severity === 2 ? "error" : "warning",
      source: "eslint",
      rule: m.ruleId || (m.fatal ? "parse" : "eslint"),
      message: m.message,
    }));
  };
}
