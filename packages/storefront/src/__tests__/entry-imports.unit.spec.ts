/**
 * The package runs in browsers and Next.js servers without the plugin: it imports nothing but its own files, for code
 * or types, named as its ES module build needs (`./name.js`).
 */
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"

const ROOM = join(__dirname, "..")

const files = readdirSync(ROOM)
  .filter((name) => /\.ts$/.test(name))
  .map((name) => ({
    name,
    source: ts.createSourceFile(name, readFileSync(join(ROOM, name), "utf8"), ts.ScriptTarget.ES2022),
  }))

interface ModuleReference {
  file: string
  specifier: string
}

function references(file: { name: string; source: ts.SourceFile }): ModuleReference[] {
  const found: ModuleReference[] = []
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text
      found.push({ file: file.name, specifier })
    }
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || node.expression.getText(file.source) === "require")
    ) {
      found.push({ file: file.name, specifier: node.arguments[0]?.getText(file.source) ?? "?" })
    }
    ts.forEachChild(node, visit)
  }
  visit(file.source)
  return found
}

describe("the storefront package", () => {
  const all = files.flatMap(references)

  it("imports nothing but its own files, for code or for types", () => {
    expect(files.map((f) => f.name)).toContain("index.ts")
    expect(all.length).toBeGreaterThan(0)
    expect(all.filter((r) => !r.specifier.startsWith("./")).map((r) => `${r.file}: ${r.specifier}`)).toEqual([])
  })

  it("names each of its files as the emitted ES module, ./name.js", () => {
    const names = new Set(files.map((f) => f.name.replace(/\.ts$/, ".js")))
    expect(all.filter((r) => !names.has(r.specifier.slice(2))).map((r) => `${r.file}: ${r.specifier}`)).toEqual([])
  })

  it("declares no dependency and no peer: a storefront installs it alone", () => {
    const manifest = JSON.parse(readFileSync(join(ROOM, "..", "package.json"), "utf8"))
    expect([manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies]).toEqual([
      undefined,
      undefined,
      undefined,
    ])
  })
})
