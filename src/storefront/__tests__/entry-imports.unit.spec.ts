/**
 * The storefront entry runs in browsers and Next.js servers, where the
 * plugin's server code and Medusa's packages must not be loaded: it imports
 * its own files at runtime, and takes only types from elsewhere: the route's
 * JSON, from the checkout's rates and details.
 */
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"

const ROOM = join(__dirname, "..")
const TYPE_SOURCES = [/^\.\.\/lib\/checkout\/(option-rate|rate-details)$/]

const files = readdirSync(ROOM)
  .filter((name) => /\.ts$/.test(name))
  .map((name) => ({
    name,
    source: ts.createSourceFile(name, readFileSync(join(ROOM, name), "utf8"), ts.ScriptTarget.ES2022),
  }))

interface ModuleReference {
  file: string
  specifier: string
  typeOnly: boolean
}

function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    return (
      statement.isTypeOnly ||
      (!!statement.exportClause &&
        ts.isNamedExports(statement.exportClause) &&
        statement.exportClause.elements.every((e) => e.isTypeOnly))
    )
  }
  const clause = statement.importClause
  if (!clause) {
    return false
  }
  if (clause.isTypeOnly) {
    return true
  }
  const bindings = clause.namedBindings
  return !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly)
}

function references(file: { name: string; source: ts.SourceFile }): ModuleReference[] {
  const found: ModuleReference[] = []
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text
      found.push({ file: file.name, specifier, typeOnly: isTypeOnly(node) })
    }
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || node.expression.getText(file.source) === "require")
    ) {
      found.push({ file: file.name, specifier: node.arguments[0]?.getText(file.source) ?? "?", typeOnly: false })
    }
    ts.forEachChild(node, visit)
  }
  visit(file.source)
  return found
}

describe("the storefront entry", () => {
  const all = files.flatMap(references)

  it("loads nothing at runtime but its own files", () => {
    expect(files.map((f) => f.name)).toContain("index.ts")
    expect(
      all.filter((r) => !r.typeOnly && !r.specifier.startsWith("./")).map((r) => `${r.file}: ${r.specifier}`)
    ).toEqual([])
  })

  it("takes types only from the route's JSON and the domain", () => {
    const outside = all.filter((r) => !r.specifier.startsWith("./"))
    expect(outside.length).toBeGreaterThan(0)
    expect(
      outside
        .filter((r) => !TYPE_SOURCES.some((allowed) => allowed.test(r.specifier)))
        .map((r) => `${r.file}: ${r.specifier}`)
    ).toEqual([])
  })
})
