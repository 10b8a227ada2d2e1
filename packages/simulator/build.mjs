// Builds dist/ (CommonJS with declarations, as the plugin and Node's require read it) with `tsc` alone.
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
rmSync(join(here, "dist"), { recursive: true, force: true })
execFileSync(
  process.execPath,
  [createRequire(import.meta.url).resolve("typescript/bin/tsc"), "-p", join(here, "tsconfig.build.json")],
  {
    stdio: "inherit",
  }
)
