// GENERATED CODE - DO NOT MODIFY. Produced by scripts/generate.ts from openapi.yaml (npm run generate).
import type { ValidateFunction } from 'ajv'
import type { components } from './api-types.ts'
export declare const validateAnalyzeRequest: ValidateFunction<components['schemas']['AnalyzeRequest']>
