// GENERATED CODE - DO NOT MODIFY. Produced by scripts/generate.ts from openapi.yaml (npm run generate).
import type { ValidateFunction } from 'ajv'
import type { operations } from './api-types.ts'
export declare const analyzeText: ValidateFunction<operations['analyzeText']['requestBody']['content']['application/json']>
/** operationId → validator of its JSON request body. */
export declare const bodyValidators: { analyzeText: typeof analyzeText }
