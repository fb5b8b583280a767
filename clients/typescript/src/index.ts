// @tea/client: the TypeScript client of the Text Entity Analysis API.
export { createTeaClient, TeaClient } from './client.js'
export type {
  AnalyzeOptions,
  AnalyzeRequest,
  AnalyzeResult,
  Quota,
  Relation,
  RelationType,
  RequestOptions,
  TeaClientOptions,
  TeaResponse,
} from './client.js'
export {
  BadRequestError,
  InternalServerError,
  isApiError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  QuotaExceededError,
  RateLimitedError,
  ServiceUnavailableError,
  TeaApiError,
  TeaError,
  TimeoutError,
  UnauthorizedError,
  UnexpectedResponseError,
} from './errors.js'
export type {
  ApiError,
  ApiErrorBody,
  ApiErrorCode,
  BadRequestCode,
  InternalErrorCode,
  MethodNotAllowedCode,
  NotFoundCode,
  ServiceUnavailableCode,
  TooManyRequestsCode,
  UnauthorizedCode,
} from './errors.js'
export type { RateLimit } from './rate-limit.js'
export { DEFAULT_RETRY } from './retry.js'
export type { RetryOptions } from './retry.js'
export type { components, paths } from './generated/api-types.js'
