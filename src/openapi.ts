// openapi.yaml as the server uses it: its component schemas as one JSON Schema 2020-12 document
// for AJV (shared by the generator's standalone validators and the test suite's contract check),
// and each operation's route types, read from the generated `operations` so that a handler's
// body, parameters and replies are written once, in the spec.
import type {
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify'
import type { operations } from '../generated/api-types.ts'

/** Rewrites `#/components/schemas/X` refs to `<id>#/$defs/X` so AJV can resolve them. */
export function schemasAsDefs(spec: { components: { schemas: Record<string, unknown> } }, id: string) {
  const text = JSON.stringify(spec.components.schemas).replaceAll('"#/components/schemas/', `"${id}#/$defs/`)
  return { $id: id, $defs: JSON.parse(text) as Record<string, unknown> }
}

export type OperationId = keyof operations

declare const jsonOf: unique symbol
/**
 * The JSON text of a `T`, for a reply serialized ahead of Fastify (which sends a string as it
 * is): typed as what it encodes, so that it stands where a `T` is expected.
 */
export type JsonText<T> = string & { readonly [jsonOf]: T }

/** `{ content: { 'application/json': X } }` → X (also for any other single media type). */
type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : undefined

/** Each status of an operation → what its reply carries (an object, or its JSON text). */
type RepliesOf<Op extends { responses: object }> = {
  [Status in keyof Op['responses']]: ContentOf<Op['responses'][Status]> | JsonText<ContentOf<Op['responses'][Status]>>
}

/** Fastify's route types for one operation: its JSON body, path and query parameters, and its replies by status. */
export interface OperationRoute<Id extends OperationId> extends RouteGenericInterface {
  Body: ContentOf<operations[Id]['requestBody']>
  Params: NonNullable<operations[Id]['parameters']['path']>
  Querystring: NonNullable<operations[Id]['parameters']['query']>
  Reply: RepliesOf<operations[Id]>
}

/** The handler of one operation, typed from the spec. */
export type OperationHandler<Id extends OperationId> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  OperationRoute<Id>
>

/** A handler for every operation of the spec: one missing is a type error (and a start-up error). */
export type OperationHandlers = { [Id in OperationId]: OperationHandler<Id> }
