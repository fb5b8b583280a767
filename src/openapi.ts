// openapi.yaml's component schemas as one JSON Schema 2020-12 document, for AJV. Shared by the
// generator (standalone validators) and the test suite's contract check.

/** Rewrites `#/components/schemas/X` refs to `<id>#/$defs/X` so AJV can resolve them. */
export function schemasAsDefs(spec: { components: { schemas: Record<string, unknown> } }, id: string) {
  const text = JSON.stringify(spec.components.schemas).replaceAll('"#/components/schemas/', `"${id}#/$defs/`)
  return { $id: id, $defs: JSON.parse(text) }
}
