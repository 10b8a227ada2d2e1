// Builds dist/esm and dist/cjs (each with declarations and a package.json naming its module type) with `tsc` alone:
// the package has no runtime dependency to bundle (decision 34).
import { execFileSync } from "node:child_process"
import { rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
rmSync(join(here, "dist"), { recursive: true, force: true })
for (const [format, module, type] of [
  ["esm", "ES2020", "module"],
  ["cjs", "CommonJS", "commonjs"],
]) {
  const outDir = join(here, "dist", format)
  execFileSync(
    process.execPath,
    [
      tsc,
      "-p",
      join(here, "tsconfig.build.json"),
      "--noEmit",
      "false",
      "--declaration",
      "--outDir",
      outDir,
      "--module",
      module,
      "--moduleResolution",
      module === "CommonJS" ? "node10" : "bundler",
    ],
    { stdio: "inherit" }
  )
  writeFileSync(join(outDir, "package.json"), JSON.stringify({ type }) + "\n")
}
